import { type Issue, type Paged, type PageRequest, PermissionDeniedError, type User } from "@kiln/domain";
import { issueWatches } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayChangeSubscriptionOf } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import type { UserService } from "../users/user-service.js";
import type { IssueService } from "./issue-service.js";

/**
 * Subscriptions to issues (Forgejo's issue_subscription.go). A user is subscribed by choice (an
 * explicit subscription or unsubscription wins), or else by taking part: posting the issue or
 * commenting on it, or owning the repository (owners watch their repositories).
 */
export class IssueWatchService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly issueService: IssueService,
    private readonly users: UserService,
  ) {}

  /** Whether the user is subscribed to the issue. */
  async isSubscribed(access: RepoAccess, issue: Issue, user: User): Promise<boolean> {
    const chosen = await issueWatches.findWatch(this.ctx.db, issue.id, user.id);
    if (chosen !== undefined) return chosen;
    if (access.repo.ownerId === user.id) return true;
    return issueWatches.isParticipant(this.ctx.db, issue.id, user.id);
  }

  /** The caller's subscription to an issue (for `subscriptions/check`). */
  async check(access: RepoAccess, index: number): Promise<{ issue: Issue; subscribed: boolean }> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    return { issue, subscribed: await this.isSubscribed(access, issue, actor) };
  }

  /**
   * Subscribes or unsubscribes `userName`: only themselves or a site admin may (403 otherwise).
   * Answers whether anything changed (Forgejo answers 201 then, 200 when it was so already).
   */
  async set(access: RepoAccess, index: number, userName: string, watching: boolean): Promise<boolean> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    const user = await this.users.getByName(userName);
    if (!mayChangeSubscriptionOf(actor, user)) {
      throw new PermissionDeniedError(
        `${actor.name} is not permitted to change subscriptions for ${user.name}`,
      );
    }
    if ((await this.isSubscribed(access, issue, user)) === watching) return false;
    await issueWatches.setWatch(this.ctx.db, issue.id, user.id, watching);
    return true;
  }

  /** The users who subscribed to the issue by choice. */
  async watchers(access: RepoAccess, index: number, page: PageRequest | undefined): Promise<Paged<User>> {
    const issue = await this.issueService.get(access, index);
    return issueWatches.listWatchers(this.ctx.db, issue.id, page);
  }
}
