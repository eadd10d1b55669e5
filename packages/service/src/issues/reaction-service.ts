import { NotFoundError, type Paged, type PageRequest, PermissionDeniedError, type User } from "@kiln/domain";
import { comments, issues, type ReactionRow, reactions, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayTalkOn, readsIssues } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { assertNotBlocked } from "../social/block-service.js";
import type { IssueService } from "./issue-service.js";

/** A reaction with the user who gave it. */
export interface ReactionView {
  readonly reaction: ReactionRow;
  readonly user: User | null;
}

/** What a reaction is on: an issue (`commentId` 0) or one of its comments. */
interface Target {
  readonly issueId: number;
  readonly commentId: number;
  readonly isPull: boolean;
  readonly isLocked: boolean;
  /** The issue's poster, who may block the reacting user as the repository's owner may. */
  readonly posterId: number | null;
}

/**
 * Reactions to issues and comments (Forgejo's issue_reaction.go): only the contents of
 * `[ui] REACTIONS`; any reader may react, except on a locked issue, where only writers may.
 */
export class ReactionService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly issueService: IssueService,
  ) {}

  private async issueTarget(access: RepoAccess, index: number): Promise<Target> {
    const issue = await this.issueService.get(access, index);
    return {
      issueId: issue.id,
      commentId: 0,
      isPull: issue.isPull,
      isLocked: issue.isLocked,
      posterId: issue.posterId,
    };
  }

  private async commentTarget(access: RepoAccess, id: number): Promise<Target> {
    const found = await comments.findComment(this.ctx.db, id);
    if (!found || found.repoId !== access.repo.id || !readsIssues(access, found.isPull)) {
      throw new NotFoundError(`comment does not exist [id: ${id}, issue_id: 0]`);
    }
    const issue = await issues.findIssueById(this.ctx.db, found.issueId);
    return {
      issueId: found.issueId,
      commentId: id,
      isPull: found.isPull,
      isLocked: issue?.isLocked === true,
      posterId: issue?.posterId ?? null,
    };
  }

  async listForIssue(access: RepoAccess, index: number, page: PageRequest): Promise<Paged<ReactionView>> {
    return this.list(await this.issueTarget(access, index), page);
  }

  async listForComment(access: RepoAccess, id: number, page: PageRequest): Promise<Paged<ReactionView>> {
    return this.list(await this.commentTarget(access, id), page);
  }

  /**
   * How many reactions of each kind an issue and its comments have (key 0 is the issue itself,
   * others are comment ids), in `[ui] REACTIONS` order of first use: what a page shows under each post.
   */
  async counts(access: RepoAccess, index: number): Promise<Map<number, { type: string; count: number }[]>> {
    const target = await this.issueTarget(access, index);
    const rows = await reactions.reactionCounts(this.ctx.db, target.issueId, this.ctx.settings.ui.reactions);
    const out = new Map<number, { type: string; count: number }[]>();
    for (const row of rows) out.set(row.commentId, [...(out.get(row.commentId) ?? []), row]);
    return out;
  }

  async addToIssue(access: RepoAccess, index: number, content: string) {
    return this.add(access, await this.issueTarget(access, index), content);
  }

  async addToComment(access: RepoAccess, id: number, content: string) {
    return this.add(access, await this.commentTarget(access, id), content);
  }

  async removeFromIssue(access: RepoAccess, index: number, content: string): Promise<void> {
    await this.remove(access, await this.issueTarget(access, index), content);
  }

  async removeFromComment(access: RepoAccess, id: number, content: string): Promise<void> {
    await this.remove(access, await this.commentTarget(access, id), content);
  }

  private async list(target: Target, page: PageRequest): Promise<Paged<ReactionView>> {
    const list = await reactions.listReactions(
      this.ctx.db,
      target.issueId,
      target.commentId,
      this.ctx.settings.ui.reactions,
      page,
    );
    const ids = [...new Set(list.items.map((row) => row.userId).filter((id): id is number => id !== null))];
    const byId = new Map((await users.findUsersByIds(this.ctx.db, ids)).map((user) => [user.id, user]));
    return {
      total: list.total,
      items: list.items.map((reaction) => ({
        reaction,
        user: reaction.userId === null ? null : (byId.get(reaction.userId) ?? null),
      })),
    };
  }

  /** Adds the caller's reaction; `created` is false when it was there already (Forgejo's 200). */
  private async add(
    access: RepoAccess,
    target: Target,
    content: string,
  ): Promise<{ view: ReactionView; created: boolean }> {
    const actor = writerOf(access);
    this.checkChange(access, target);
    await assertNotBlocked(this.ctx.db, [access.repo.ownerId, target.posterId ?? 0], actor.id);
    if (!this.ctx.settings.ui.reactions.includes(content)) {
      throw new PermissionDeniedError(`'${content}' is not an allowed reaction`);
    }
    const { reaction, created } = await reactions.addReaction(this.ctx.db, {
      issueId: target.issueId,
      commentId: target.commentId,
      userId: actor.id,
      type: content,
    });
    return { view: { reaction, user: actor }, created };
  }

  private async remove(access: RepoAccess, target: Target, content: string): Promise<void> {
    const actor = writerOf(access);
    this.checkChange(access, target);
    await reactions.removeReaction(this.ctx.db, {
      issueId: target.issueId,
      commentId: target.commentId,
      userId: actor.id,
      type: content,
    });
  }

  private checkChange(access: RepoAccess, target: Target): void {
    if (!mayTalkOn(access, target)) throw new PermissionDeniedError("no permission to change reaction");
  }
}
