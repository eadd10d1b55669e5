import {
  CommentType,
  InvalidArgumentError,
  type Issue,
  NotFoundError,
  PermissionDeniedError,
  type PullRequest,
  type Review,
  ReviewType,
  type Team,
  type User,
} from "@kiln/domain";
import { comments, type Db, emails, reviews, teams, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import type { PermissionService } from "../access/permission-service.js";
import { mayReview } from "../access/pull-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { canSeeUser } from "../users/visibility.js";
import type { PullService } from "./pull-service.js";
import type { ReviewerRules } from "./review-rules.js";
import { loadReviewViews, type ReviewView } from "./review-views.js";

/** The reviewers a request names: users by name or e-mail address, teams of the owning organization by name. */
export interface ReviewRequestInput {
  readonly reviewers: readonly string[];
  readonly teamReviewers: readonly string[];
}

interface Checked<T> {
  readonly who: T;
  readonly official: boolean;
}

/**
 * Review requests (Forgejo's CreateReviewRequests/DeleteReviewRequests, services/issue/assignee.go
 * and models/issues/review.go): kept as reviews of type `request`, shown in the pull request's
 * `requested_reviewers`. Every name is looked up and checked before anything changes; then all
 * requests, their timeline entries and the reviewers' notifications commit together. A request to
 * an official reviewer is official (it blocks merges under `block_on_official_review_requests`)
 * and sets aside their earlier decision until they review again.
 */
export class ReviewRequestService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly pulls: PullService,
    private readonly rules: ReviewerRules,
  ) {}

  /** Asks the users and teams for a review; answers the requests made (those already open are skipped). */
  async request(access: RepoAccess, index: number, input: ReviewRequestInput): Promise<ReviewView[]> {
    const doer = writerOf(access);
    const { issue, pull } = await this.pulls.get(access, index);
    const { people, groups } = await this.check(access, doer, issue, pull, input, true);
    const at = new Date();
    const made = await this.ctx.db.transaction().execute(async (trx) => {
      const created: Review[] = [];
      for (const { who, official } of people) {
        const latest = await reviews.latestDecisionOf(trx, issue.id, who.id);
        if (latest?.type === ReviewType.request) continue;
        if (official) await reviews.clearOfficial(trx, issue.id, who.id);
        const review = await this.insertRequest(trx, issue, { reviewerId: who.id, official }, at);
        const entry = await this.entry(trx, access, issue, doer, { assigneeId: who.id }, false, at);
        await reviews.notifyUsers(trx, this.change(access, issue, doer, entry, at), [who.id]);
        created.push(review);
      }
      for (const { who, official } of groups) {
        if (await reviews.findTeamRequest(trx, issue.id, who.id)) continue;
        const review = await this.insertRequest(trx, issue, { reviewerTeamId: who.id, official }, at);
        const entry = await this.entry(trx, access, issue, doer, { assigneeTeamId: who.id }, false, at);
        const members = await reviews.teamMemberIds(trx, who.id);
        const recipients = members.filter((id) => id !== issue.posterId);
        await reviews.notifyUsers(trx, this.change(access, issue, doer, entry, at), recipients);
        created.push(review);
      }
      return created;
    });
    return loadReviewViews(this.ctx.db, index, made);
  }

  /** Withdraws the requests of these users and teams (those not asked are skipped). */
  async withdraw(access: RepoAccess, index: number, input: ReviewRequestInput): Promise<void> {
    const doer = writerOf(access);
    const { issue, pull } = await this.pulls.get(access, index);
    const { people, groups } = await this.check(access, doer, issue, pull, input, false);
    const at = new Date();
    await this.ctx.db.transaction().execute(async (trx) => {
      for (const { who, official } of people) {
        const latest = await reviews.latestDecisionOf(trx, issue.id, who.id);
        if (latest?.type !== ReviewType.request) continue;
        await reviews.deleteReview(trx, latest.id);
        if (official) await reviews.restoreOfficial(trx, issue.id, who.id);
        await this.entry(trx, access, issue, doer, { assigneeId: who.id }, true, at);
      }
      for (const { who } of groups) {
        const open = await reviews.findTeamRequest(trx, issue.id, who.id);
        if (!open) continue;
        await reviews.deleteReview(trx, open.id);
        await this.entry(trx, access, issue, doer, { assigneeTeamId: who.id }, true, at);
      }
    });
  }

  /**
   * Looks every name up (404 `User 'x' not exist` / `Team 'x' not exist`) and checks it as
   * Forgejo's IsValidReviewRequest / IsValidTeamReviewRequest do (422 `<reason> [user_id: <doer>,
   * repo_id: <repo>]`), and that no decided reviewer is asked again on a closed pull request
   * (403). Teams count only in an organization's repository.
   */
  private async check(
    access: RepoAccess,
    doer: User,
    issue: Issue,
    pull: PullRequest,
    input: ReviewRequestInput,
    add: boolean,
  ): Promise<{ people: Checked<User>[]; groups: Checked<Team>[] }> {
    const invalid = (reason: string) =>
      new InvalidArgumentError(`${reason} [user_id: ${doer.id}, repo_id: ${access.repo.id}]`);
    const mayChange = await this.rules.mayChangeRequests(access.repo, access.owner, issue, doer);
    const people = new Map<number, Checked<User>>();
    for (const name of input.reviewers) {
      const reviewer = await this.findUser(name);
      if (!reviewer || !canSeeUser(doer, reviewer)) throw new NotFoundError(`User '${name}' not exist`);
      if (people.has(reviewer.id)) continue;
      if (reviewer.type === "organization") throw invalid("Organization can't be added as reviewer");
      const latest = await reviews.latestDecisionOf(this.ctx.db, issue.id, reviewer.id);
      if (add) {
        const permission = await this.permissions.forRepository(reviewer, access.repo);
        if (!mayReview(permission)) throw invalid("Reviewer can't read");
        if (reviewer.id === issue.posterId) throw invalid("poster of pr can't be reviewer");
        const posterAsksAgain =
          doer.id === issue.posterId && latest !== undefined && latest.type !== ReviewType.request;
        if (!mayChange && !posterAsksAgain) throw invalid("Doer can't choose reviewer");
        if (latest && latest.type !== ReviewType.request && (issue.isClosed || pull.hasMerged)) {
          throw new PermissionDeniedError("cannot request a re-review on a closed or merged PR");
        }
      } else {
        const ownRequest = latest?.type === ReviewType.request && reviewer.id === doer.id;
        if (!mayChange && !ownRequest) throw invalid("Doer can't remove reviewer");
      }
      const official = await this.rules.isOfficial(access.repo, pull.baseBranch, reviewer);
      people.set(reviewer.id, { who: reviewer, official });
    }
    const groups = new Map<number, Checked<Team>>();
    if (access.owner.type === "organization" && input.teamReviewers.length > 0) {
      const doerOfficial = add && (await this.rules.isOfficial(access.repo, pull.baseBranch, doer, access));
      for (const name of input.teamReviewers) {
        const team = await teams.findTeamByName(this.ctx.db, access.owner.id, name);
        if (!team) throw new NotFoundError(`Team '${name}' not exist`);
        if (groups.has(team.id)) continue;
        if (add && access.repo.isPrivate && !(await this.rules.teamCovers(access.repo, team))) {
          throw invalid("Reviewing team can't read repo");
        }
        if (!mayChange) throw invalid(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer");
        const official =
          add && (doerOfficial || (await this.rules.isOfficialTeam(access.repo, pull.baseBranch, team)));
        groups.set(team.id, { who: team, official });
      }
    }
    return { people: [...people.values()], groups: [...groups.values()] };
  }

  /** A user by name, or by an activated e-mail address when the name has an `@` (Forgejo's GetUserByEmail). */
  private async findUser(name: string): Promise<User | undefined> {
    if (!name.includes("@")) return users.findUserByName(this.ctx.db, name);
    const email = await emails.findEmail(this.ctx.db, name);
    return email && (email.isActivated || email.isPrimary)
      ? users.findUserById(this.ctx.db, email.userId)
      : undefined;
  }

  private async insertRequest(
    trx: Db,
    issue: Issue,
    who: { reviewerId?: number; reviewerTeamId?: number; official: boolean },
    at: Date,
  ): Promise<Review> {
    if (who.reviewerId !== undefined) await reviews.deleteUserRequests(trx, issue.id, who.reviewerId);
    return reviews.insertReview(
      trx,
      {
        type: ReviewType.request,
        reviewerId: who.reviewerId ?? null,
        reviewerTeamId: who.reviewerTeamId ?? null,
        issueId: issue.id,
        content: "",
        official: who.official,
        commitId: "",
        stale: false,
      },
      at,
    );
  }

  /** The `review_request` timeline entry (Forgejo keeps the reviewer as the assignee, removal as removed_assignee). */
  private async entry(
    trx: Db,
    access: RepoAccess,
    issue: Issue,
    doer: User,
    who: { assigneeId?: number; assigneeTeamId?: number },
    removed: boolean,
    at: Date,
  ) {
    // Forgejo's PullRequestReviewRequest: one event per user asked or withdrawn (a team: the team).
    await this.ctx.events.record(trx, {
      ...inRepo(access.repo, doer.id, at),
      type: "pull_request_review_request",
      action: removed ? "review_request_removed" : "review_requested",
      issueId: issue.id,
      reviewerId: who.assigneeId ?? null,
      teamId: who.assigneeTeamId ?? null,
    });
    return comments.insertComment(
      trx,
      {
        issueId: issue.id,
        type: CommentType.reviewRequest,
        posterId: doer.id,
        removedAssignee: removed,
        ...who,
      },
      at,
    );
  }

  private change(access: RepoAccess, issue: Issue, doer: User, entry: { readonly id: number }, at: Date) {
    return { issueId: issue.id, repoId: access.repo.id, actorId: doer.id, commentId: entry.id, at };
  }
}
