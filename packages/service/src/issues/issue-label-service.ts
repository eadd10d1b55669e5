import {
  BadRequestError,
  CommentType,
  InvalidArgumentError,
  type Issue,
  type Label,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
} from "@kiln/domain";
import { comments, type Db, issues, labels } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { writesIssues } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { recountIssueCounters } from "./issue-counters.js";
import type { IssueService } from "./issue-service.js";
import { updateTime } from "./issue-update-time.js";

/** The scope of an exclusive label: its name up to the last `/` (`kind/bug` → `kind`). */
function scopeOf(label: Label): string | undefined {
  const at = label.name.lastIndexOf("/");
  return label.exclusive && at > 0 ? label.name.slice(0, at) : undefined;
}

/**
 * An issue's labels (Forgejo's routers/api/v1/repo/issue_label.go): ids or names of the
 * repository's labels and its organization's, unknown ones ignored; exclusive labels keep one
 * label per scope. Writers only. Each change adds its timeline events, recounts the labels and
 * notifies the issue's participants, in one transaction.
 */
export class IssueLabelService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly issueService: IssueService,
  ) {}

  /** A page of an issue's labels, by name (what `GET …/labels` answers). */
  async listPage(access: RepoAccess, index: number, page: PageRequest): Promise<Paged<Label>> {
    const issue = await this.issueService.get(access, index);
    return labels.listIssueLabels(this.ctx.db, issue.id, page);
  }

  /** An issue's labels, by name. */
  async list(access: RepoAccess, index: number): Promise<Label[]> {
    const issue = await this.issueService.get(access, index);
    return (await labels.labelsOfIssues(this.ctx.db, [issue.id])).get(issue.id) ?? [];
  }

  /**
   * The labels a request names: all numbers (ids) or all strings (names); 400 with Forgejo's
   * messages for anything else.
   */
  async resolve(access: RepoAccess, given: readonly unknown[]): Promise<Label[]> {
    if (given.some((item) => typeof item !== "number" && typeof item !== "string")) {
      throw new BadRequestError("a label must be an integer or a string");
    }
    const numbers = given.filter((item): item is number => typeof item === "number");
    const strings = given.filter((item): item is string => typeof item === "string");
    if (numbers.length > 0 && strings.length > 0) {
      throw new BadRequestError("labels should be an array of strings or integers");
    }
    if (numbers.length > 0) {
      return labels.usableLabelsByIds(
        this.ctx.db,
        access.repo.id,
        access.repo.ownerId,
        numbers.filter(Number.isSafeInteger),
      );
    }
    return labels.usableLabelsByNames(this.ctx.db, access.repo.id, access.repo.ownerId, strings);
  }

  /** Adds labels (an exclusive one replaces the issue's other labels of its scope); answers the issue's labels. */
  async add(
    access: RepoAccess,
    index: number,
    given: readonly unknown[],
    updatedAt?: Date,
  ): Promise<Label[]> {
    const { issue, at } = await this.writable(access, index, updatedAt);
    const wanted = await this.resolve(access, given);
    const current = await this.list(access, index);
    const scopes = new Set(wanted.map(scopeOf).filter((scope) => scope !== undefined));
    const removed = current.filter((label) => {
      const scope = scopeOf(label);
      return scope !== undefined && scopes.has(scope) && !wanted.some((w) => w.id === label.id);
    });
    const added = wanted.filter((label) => !current.some((c) => c.id === label.id));
    await this.apply(access, issue, added, removed, at);
    return this.list(access, index);
  }

  /** Replaces the labels (one per exclusive scope: the last by name); answers the issue's labels. */
  async replace(
    access: RepoAccess,
    index: number,
    given: readonly unknown[],
    updatedAt?: Date,
  ): Promise<Label[]> {
    const { issue, at } = await this.writable(access, index, updatedAt);
    const requested = await this.resolve(access, given);
    const byScope = new Map<string, Label>();
    for (const label of requested) {
      const scope = scopeOf(label);
      if (scope !== undefined) byScope.set(scope, label);
    }
    const wanted = requested.filter((label) => {
      const scope = scopeOf(label);
      return scope === undefined || byScope.get(scope)?.id === label.id;
    });
    const current = await this.list(access, index);
    const removed = current.filter((label) => !wanted.some((w) => w.id === label.id));
    const added = wanted.filter((label) => !current.some((c) => c.id === label.id));
    await this.apply(access, issue, added, removed, at);
    return this.list(access, index);
  }

  /** Removes every label. */
  async clear(access: RepoAccess, index: number, updatedAt?: Date): Promise<void> {
    const { issue, at } = await this.writable(access, index, updatedAt);
    await this.apply(access, issue, [], await this.list(access, index), at, "label_cleared");
  }

  /**
   * Removes one label: 422 `label does not exist` for an unknown id; a label the issue does
   * not carry is no change.
   */
  async remove(access: RepoAccess, index: number, labelId: number): Promise<void> {
    const { issue, at } = await this.writable(access, index, undefined);
    const [label] = await labels.usableLabelsByIds(this.ctx.db, access.repo.id, access.repo.ownerId, [
      labelId,
    ]);
    const known = label ?? (await this.anyLabel(this.ctx.db, labelId));
    if (!known) throw new InvalidArgumentError(`label does not exist [label_id: ${labelId}]`);
    const current = await this.list(access, index);
    await this.apply(
      access,
      issue,
      [],
      current.filter((l) => l.id === labelId),
      at,
    );
  }

  private async anyLabel(db: Db, id: number): Promise<boolean> {
    return (await db.selectFrom("label").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
  }

  /** The issue, if the caller is a writer of its kind (403 with no message otherwise), and the time of the change. */
  private async writable(access: RepoAccess, index: number, updatedAt: Date | undefined) {
    writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!writesIssues(access, issue.isPull)) throw new PermissionDeniedError("");
    return { issue, at: updateTime(access, issue, updatedAt) };
  }

  private async apply(
    access: RepoAccess,
    issue: Issue,
    added: readonly Label[],
    removed: readonly Label[],
    at: Date,
    action: "label_updated" | "label_cleared" = "label_updated",
  ) {
    if (added.length === 0 && removed.length === 0) return;
    const actor = writerOf(access);
    await this.ctx.db.transaction().execute(async (trx) => {
      await issues.removeIssueLabels(
        trx,
        issue.id,
        removed.map((label) => label.id),
      );
      await issues.addIssueLabels(
        trx,
        issue.id,
        added.map((label) => label.id),
      );
      for (const [list, content] of [
        [added, "1"],
        [removed, ""],
      ] as const) {
        for (const label of list) {
          await comments.insertComment(
            trx,
            { issueId: issue.id, type: CommentType.label, posterId: actor.id, labelId: label.id, content },
            at,
          );
        }
      }
      await issues.updateIssue(trx, issue.id, { updatedAt: at });
      await recountIssueCounters(
        trx,
        access.repo.id,
        [],
        [...added, ...removed].map((label) => label.id),
      );
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actor.id, at),
        type: issue.isPull ? "pull_request_label" : "issue_label",
        action,
        issueId: issue.id,
      });
    });
  }
}
