import {
  BadRequestError,
  CommentType,
  InvalidArgumentError,
  type Issue,
  PermissionDeniedError,
} from "@kiln/domain";
import { comments, issueRelations, issues } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { readsIssues, writesIssues } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import type { IssueService } from "./issue-service.js";

/** Forgejo's default `[repository.issue] LOCK_REASONS`: the reasons an issue may be locked for. */
export const LOCK_REASONS = ["Too heated", "Off-topic", "Resolved", "Spam"] as const;

/**
 * Locking and pinning issues (Forgejo's models/issues issue_lock.go and Pin/Unpin/MovePin). A
 * locked issue takes comments and reactions from writers only; pinned issues are kept in
 * positions 1..n per repository (issues and pull requests apart), at most `[repository.issue]
 * MAX_PINNED`. Each change and its timeline event commit together.
 */
export class IssueStateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly issueService: IssueService,
  ) {}

  /** Locks an issue (writers; 403 otherwise) for one of {@link LOCK_REASONS} or none; locking a locked issue changes nothing. */
  async lock(access: RepoAccess, index: number, reason: string): Promise<void> {
    const issue = await this.writable(access, index);
    if (reason !== "" && !(LOCK_REASONS as readonly string[]).includes(reason)) {
      throw new InvalidArgumentError(`lock_reason must be empty or one of: ${LOCK_REASONS.join(", ")}`);
    }
    if (issue.isLocked) return;
    await this.setLocked(access, issue, true, reason);
  }

  /** Unlocks an issue (writers); unlocking an unlocked issue changes nothing. */
  async unlock(access: RepoAccess, index: number): Promise<void> {
    const issue = await this.writable(access, index);
    if (!issue.isLocked) return;
    await this.setLocked(access, issue, false, "");
  }

  private async setLocked(access: RepoAccess, issue: Issue, locked: boolean, reason: string): Promise<void> {
    const actor = writerOf(access);
    const at = new Date();
    await this.ctx.db.transaction().execute(async (trx) => {
      await issues.updateIssue(trx, issue.id, { isLocked: locked, updatedAt: at });
      await comments.insertComment(
        trx,
        {
          issueId: issue.id,
          type: locked ? CommentType.lock : CommentType.unlock,
          posterId: actor.id,
          content: reason,
        },
        at,
      );
    });
  }

  private async writable(access: RepoAccess, index: number): Promise<Issue> {
    const issue = await this.issueService.get(access, index);
    if (!writesIssues(access, issue.isPull))
      throw new PermissionDeniedError("no permission to lock or unlock this issue");
    return issue;
  }

  /** Pins an issue after the last pinned one (400 when the maximum is pinned); pinning a pinned issue changes nothing. */
  async pin(access: RepoAccess, index: number): Promise<void> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (issue.pinOrder > 0) return;
    await this.ctx.db.transaction().execute(async (trx) => {
      // The repository's row lock orders concurrent pins, so two never take the same position.
      await trx.selectFrom("repository").select("id").where("id", "=", access.repo.id).forUpdate().execute();
      const max = await issueRelations.maxPinOrder(trx, access.repo.id, issue.isPull);
      if (max >= this.ctx.settings.repository.maxPinned) {
        throw new BadRequestError("the maximum number of pinned issues has been reached");
      }
      await issues.updateIssue(trx, issue.id, { pinOrder: max + 1, updatedAt: issue.updatedAt });
      await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.pin, posterId: actor.id },
        new Date(),
      );
    });
  }

  /** Unpins an issue, closing the gap it leaves; unpinning an unpinned issue changes nothing. */
  async unpin(access: RepoAccess, index: number): Promise<void> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (issue.pinOrder === 0) return;
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom("repository").select("id").where("id", "=", access.repo.id).forUpdate().execute();
      const current = await issues.findIssueById(trx, issue.id);
      if (!current || current.pinOrder === 0) return;
      await issues.updateIssue(trx, issue.id, { pinOrder: 0, updatedAt: issue.updatedAt });
      await issueRelations.shiftPins(trx, access.repo.id, issue.isPull, current.pinOrder + 1, -1);
      await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.unpin, posterId: actor.id },
        new Date(),
      );
    });
  }

  /** Moves a pinned issue to `position` (1-based; beyond the last, it goes last); an unpinned issue stays as it is. */
  async move(access: RepoAccess, index: number, position: number): Promise<void> {
    const issue = await this.issueService.get(access, index);
    if (issue.pinOrder === 0) return;
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom("repository").select("id").where("id", "=", access.repo.id).forUpdate().execute();
      const current = await issues.findIssueById(trx, issue.id);
      if (!current || current.pinOrder === 0) return;
      const max = await issueRelations.maxPinOrder(trx, access.repo.id, issue.isPull);
      const target = Math.min(position, max);
      // Take it out (positions after it close up), then make room at the target and put it back.
      await issues.updateIssue(trx, issue.id, { pinOrder: 0, updatedAt: issue.updatedAt });
      await issueRelations.shiftPins(trx, access.repo.id, issue.isPull, current.pinOrder + 1, -1);
      await issueRelations.shiftPins(trx, access.repo.id, issue.isPull, target, 1);
      await issues.updateIssue(trx, issue.id, { pinOrder: target, updatedAt: issue.updatedAt });
    });
  }

  /** The repository's pinned issues (or pull requests) in order; none when the caller may not read that kind. */
  async pinned(access: RepoAccess, isPull: boolean): Promise<Issue[]> {
    if (!readsIssues(access, isPull)) return [];
    return issueRelations.listPinned(this.ctx.db, access.repo.id, isPull);
  }

  /** Whether another issue and another pull request may be pinned. */
  async newPinAllowed(access: RepoAccess): Promise<{ issues: boolean; pulls: boolean }> {
    const max = this.ctx.settings.repository.maxPinned;
    const [forIssues, forPulls] = await Promise.all([
      issueRelations.maxPinOrder(this.ctx.db, access.repo.id, false),
      issueRelations.maxPinOrder(this.ctx.db, access.repo.id, true),
    ]);
    return { issues: forIssues < max, pulls: forPulls < max };
  }
}
