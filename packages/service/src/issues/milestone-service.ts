import { type Milestone, NotFoundError, type Paged, type PageRequest, type Repository } from "@kiln/domain";
import { type MilestoneFilter, milestones } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/** A milestone as a create or edit request gives it. */
export interface MilestoneInput {
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly dueOn?: Date | null | undefined;
  /** `closed` closes; any other value opens (Forgejo's rule). */
  readonly state?: string | undefined;
}

/**
 * Go's `strconv.ParseInt(s, 0, 64)`, which Forgejo uses for a milestone in a path: decimal, or
 * with a `0x`, `0o`, `0b` or `0` prefix; undefined when it is not a number.
 */
export function parseGoInt(text: string): number | undefined {
  const match = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(text);
  if (!match) return undefined;
  const [, sign, digits] = match as unknown as [string, string, string];
  const clean = digits.replaceAll("_", "");
  let value: number;
  if (/^0[xX]/.test(clean)) value = Number.parseInt(clean.slice(2), 16);
  else if (/^0[oO]/.test(clean)) value = Number.parseInt(clean.slice(2), 8);
  else if (/^0[bB]/.test(clean)) value = Number.parseInt(clean.slice(2), 2);
  else if (clean.length > 1 && clean.startsWith("0")) value = Number.parseInt(clean.slice(1), 8);
  else value = Number.parseInt(clean, 10);
  if (!Number.isSafeInteger(value)) return undefined;
  return sign === "-" ? -value : value;
}

/** Milestones of a repository (Forgejo's routers/api/v1/repo/milestone.go). */
export class MilestoneService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(
    repo: Repository,
    filter: MilestoneFilter,
    page: PageRequest | undefined,
  ): Promise<Paged<Milestone>> {
    return milestones.listMilestones(this.ctx.db, repo.id, filter, page);
  }

  /** The milestone with this id in the repository, else the one with exactly this name; NotFoundError otherwise. */
  async get(repo: Repository, idOrName: string): Promise<Milestone> {
    const id = parseGoInt(idOrName);
    const byId = id ? await milestones.findMilestone(this.ctx.db, repo.id, id) : undefined;
    const milestone = byId ?? (await milestones.findMilestoneByName(this.ctx.db, repo.id, idOrName));
    if (!milestone) throw new NotFoundError();
    return milestone;
  }

  /** Creates a milestone; `state: "closed"` creates it closed, with `closed_at` set. */
  async create(repo: Repository, input: MilestoneInput): Promise<Milestone> {
    return this.ctx.db.transaction().execute((trx) =>
      milestones.insertMilestone(trx, repo.id, {
        name: (input.title ?? "").trim(),
        content: input.description ?? "",
        deadline: input.dueOn ?? null,
        closed: input.state === "closed",
      }),
    );
  }

  /**
   * Changes the fields given: a title only when not empty, the due date only when given (the API
   * cannot remove it, as in Forgejo), the state `closed` closes and any other reopens.
   */
  async edit(repo: Repository, idOrName: string, input: MilestoneInput): Promise<Milestone> {
    const milestone = await this.get(repo, idOrName);
    const title = input.title?.trim();
    const closing = input.state === undefined ? undefined : input.state === "closed";
    await this.ctx.db.transaction().execute(async (trx) => {
      await milestones.updateMilestone(trx, milestone.id, {
        ...(title ? { name: title } : {}),
        ...(input.description !== undefined ? { content: input.description } : {}),
        ...(input.dueOn ? { deadline: input.dueOn } : {}),
        ...(closing === undefined || closing === milestone.isClosed
          ? {}
          : { isClosed: closing, closedAt: closing ? new Date() : null }),
      });
      await milestones.recountRepoMilestones(trx, repo.id);
    });
    return (await milestones.findMilestone(this.ctx.db, repo.id, milestone.id)) as Milestone;
  }

  async delete(repo: Repository, idOrName: string): Promise<void> {
    const milestone = await this.get(repo, idOrName);
    await this.ctx.db.transaction().execute((trx) => milestones.deleteMilestone(trx, repo.id, milestone.id));
  }
}
