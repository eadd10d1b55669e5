import {
  AlreadyExistsError,
  CommentType,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
} from "@kiln/domain";
import { branchTip, isAncestor } from "@kiln/git";
import { comments, pulls } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayEditIssue, writesIssues } from "../access/issue-rules.js";
import { mayGrantMaintainerEdits } from "../access/pull-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import type { IssueEditService } from "../issues/issue-edit-service.js";
import type { IssueLabelService } from "../issues/issue-label-service.js";
import type { RepoService } from "../repos/repo-service.js";
import type { PullChecker } from "./pull-check.js";
import type { PullService } from "./pull-service.js";
import type { PullIssue } from "./pull-views.js";

/** `PATCH /repos/{owner}/{repo}/pulls/{index}`, in service terms; absent fields stay as they are. */
export interface EditPullInput {
  readonly title?: string | undefined;
  readonly body?: string | undefined;
  readonly base?: string | undefined;
  readonly assignee?: string | undefined;
  readonly assignees?: readonly string[] | undefined;
  readonly milestoneId?: number | undefined;
  readonly labelIds?: readonly number[] | undefined;
  readonly state?: string | undefined;
  readonly dueDate?: string | undefined;
  readonly unsetDueDate?: boolean | undefined;
  readonly allowMaintainerEdit?: boolean | undefined;
}

/**
 * Editing pull requests (Forgejo's EditPullRequest): the issue's fields as an issue edit changes
 * them, labels (writers only, silently ignored for others), the base branch (which checks the
 * pull request again) and whether maintainers may push to the head.
 */
export class PullEditService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly pullService: PullService,
    private readonly issueEdits: IssueEditService,
    private readonly issueLabels: IssueLabelService,
    private readonly checker: PullChecker,
  ) {}

  async edit(access: RepoAccess, index: number, input: EditPullInput): Promise<PullIssue> {
    const actor = writerOf(access);
    const { issue, pull } = await this.pullService.get(access, index);
    const writer = writesIssues(access, true);
    if (!mayEditIssue(access, { posterId: issue.posterId, isPull: true }))
      throw new PermissionDeniedError("");
    if (input.state !== undefined && pull.hasMerged && input.state !== (issue.isClosed ? "closed" : "open")) {
      throw new PreconditionFailedError("cannot change state of this pull request, it was already merged");
    }
    const newBase = input.base && input.base !== pull.baseBranch && !pull.hasMerged ? input.base : undefined;
    if (newBase !== undefined) await this.checkBase(access, { issue, pull }, newBase);
    if (input.allowMaintainerEdit !== undefined) {
      // Forgejo's SetAllowEdits: the poster, who must be able to write to the head's repository.
      const head = await this.pullService.headAccess(access, pull);
      if (!mayGrantMaintainerEdits(access, issue, head)) {
        throw new PermissionDeniedError("SetAllowEdits: user not allowed to do this action");
      }
    }
    await this.issueEdits.edit(access, index, {
      title: input.title,
      body: input.body,
      assignee: input.assignee,
      assignees: input.assignees,
      milestoneId: input.milestoneId,
      state: input.state,
      dueDate: input.dueDate,
      unsetDueDate: input.unsetDueDate,
    });
    if (writer && input.labelIds !== undefined) await this.issueLabels.replace(access, index, input.labelIds);
    if (newBase !== undefined) await this.changeBase(access, actor.id, pull, newBase);
    if (input.allowMaintainerEdit !== undefined) {
      await pulls.updatePull(this.ctx.db, pull.id, { allowMaintainerEdit: input.allowMaintainerEdit });
    }
    return this.pullService.get(access, index);
  }

  /** Forgejo's ChangeTargetBranch checks: the branch exists, the pull request is open, it still brings something, and no other open one joins the same branches. */
  private async checkBase(access: RepoAccess, { issue, pull }: PullIssue, base: string): Promise<void> {
    const git = await this.repos.git(access.repo);
    const tip = await branchTip(git, base);
    if (!tip) throw new NotFoundError(`new base '${base}' not exist`);
    if (issue.isClosed) {
      throw new InvalidArgumentError(
        `issue is closed [id: ${issue.id}, repo_id: ${access.repo.id}, index: ${issue.index}]`,
      );
    }
    if (pull.headCommitId && (await isAncestor(git, pull.headCommitId, tip))) {
      throw new InvalidArgumentError(`branches are equal [head: ${pull.headBranch}, base: ${base}]`);
    }
    const existing = await pulls.findOpenPullFor(this.ctx.db, {
      baseRepoId: access.repo.id,
      baseBranch: base,
      headRepoId: pull.headRepoId ?? access.repo.id,
      headBranch: pull.headBranch,
    });
    if (existing) {
      throw new AlreadyExistsError(
        `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.index}, head_repo_id: ${existing.headRepoId}, base_repo_id: ${existing.baseRepoId}, head_branch: ${existing.headBranch}, base_branch: ${existing.baseBranch}]`,
      );
    }
  }

  private async changeBase(
    access: RepoAccess,
    actorId: number,
    pull: PullIssue["pull"],
    base: string,
  ): Promise<void> {
    const at = new Date();
    await this.ctx.db.transaction().execute(async (trx) => {
      await pulls.updatePull(trx, pull.id, { baseBranch: base });
      const comment = await comments.insertComment(
        trx,
        {
          issueId: pull.issueId,
          type: CommentType.changeTargetBranch,
          posterId: actorId,
          oldRef: pull.baseBranch,
          newRef: base,
        },
        at,
      );
      // Forgejo's PullRequestChangeTargetBranch: `edited` with the old base in changes.ref.
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actorId, at),
        type: "pull_request",
        action: "edited",
        issueId: pull.issueId,
        changes: { ref: { from: pull.baseBranch } },
        commentId: comment.id,
      });
    });
    // The stored state was for the old base: check against the new one now.
    const moved = await pulls.findPullById(this.ctx.db, pull.id);
    if (moved) await this.checker.current(access.repo, moved, false);
  }
}
