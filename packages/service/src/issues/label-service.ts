import { InvalidArgumentError, type Label, NotFoundError, type Paged, type PageRequest } from "@kiln/domain";
import { type LabelScope, type LabelSort, labels } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/** A label as a create or edit request gives it; absent fields stay as they are on edit. */
export interface LabelInput {
  readonly name?: string | undefined;
  readonly color?: string | undefined;
  readonly description?: string | undefined;
  readonly exclusive?: boolean | undefined;
  readonly archived?: boolean | undefined;
}

/**
 * A label color as stored, `#rrggbb` in lower case, from what a client sent: six hex digits,
 * with or without `#`, in any case; anything else is 422 `bad color code: …` (the pattern
 * `^#?[0-9a-fA-F]{6}$` the issue tracker's specification gives).
 */
export function normalizeColor(color: string): string {
  const trimmed = color.trim().toLowerCase();
  const withHash = trimmed.startsWith("#") ? trimmed : `#${trimmed}`;
  if (!/^#[0-9a-f]{6}$/.test(withHash)) throw new InvalidArgumentError(`bad color code: ${withHash}`);
  return withHash;
}

/** Labels of repositories and organizations (Forgejo's routers/api/v1/{repo,org}/label.go). */
export class LabelService {
  constructor(private readonly ctx: ServiceContext) {}

  /** A scope's labels, by name unless `sort` says otherwise; all of them when `page` is undefined. */
  async list(scope: LabelScope, sort: LabelSort, page: PageRequest | undefined): Promise<Paged<Label>> {
    return labels.listLabels(this.ctx.db, scope, sort, page);
  }

  /**
   * The label with this id, or (for repository labels, when `idOrName` is not a number) with this
   * exact name, as Forgejo's GET looks it up; NotFoundError otherwise.
   */
  async get(scope: LabelScope, idOrName: string): Promise<Label> {
    const id = Number(idOrName);
    const label =
      /^-?\d+$/.test(idOrName) && Number.isSafeInteger(id)
        ? await labels.findLabel(this.ctx.db, scope, id)
        : "repoId" in scope
          ? await labels.findLabelByName(this.ctx.db, scope, idOrName)
          : undefined;
    if (!label) throw new NotFoundError();
    return label;
  }

  async create(scope: LabelScope, input: LabelInput): Promise<Label> {
    return labels.insertLabel(this.ctx.db, scope, {
      name: (input.name ?? "").trim(),
      color: normalizeColor(input.color ?? ""),
      description: input.description ?? "",
      exclusive: input.exclusive ?? false,
      archived: input.archived ?? false,
    });
  }

  /**
   * Changes the fields given. As in Forgejo, a request without `is_archived` un-archives the
   * label (the API has no way to leave it as it is).
   */
  async edit(scope: LabelScope, id: number, input: LabelInput): Promise<Label> {
    const label = await labels.findLabel(this.ctx.db, scope, id);
    if (!label) throw new NotFoundError();
    const archived = input.archived === true;
    await labels.updateLabel(this.ctx.db, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.color !== undefined ? { color: normalizeColor(input.color) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.exclusive !== undefined ? { exclusive: input.exclusive } : {}),
      archivedAt: archived ? (label.archivedAt ?? new Date()) : null,
    });
    return (await labels.findLabel(this.ctx.db, scope, id)) as Label;
  }

  /** Deletes the label if this scope has it; as in Forgejo, deleting one that is not there succeeds. */
  async delete(scope: LabelScope, id: number): Promise<void> {
    if (await labels.findLabel(this.ctx.db, scope, id)) await labels.deleteLabel(this.ctx.db, id);
  }
}
