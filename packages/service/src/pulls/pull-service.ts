import {
  AlreadyExistsError,
  CommentType,
  InvalidArgumentError,
  type Issue,
  NotFoundError,
  type Paged,
  type PageRequest,
  type PullRequest,
  PullStatus,
  type Repository,
} from "@kiln/domain";
import { branchTip, type GitRepository, KeyedMutex, rangeCommits, setPullHead } from "@kiln/git";
import {
  comments,
  type IssueSort,
  issueSearch,
  issues,
  labels,
  milestones,
  pulls,
  users,
} from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import type { Actor } from "../access/actor.js";
import { readsIssues } from "../access/issue-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import { allowsMaintainerEditsByDefault } from "../access/pull-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { resolveAssignees } from "../issues/issue-assignees.js";
import { mentionedNames } from "../issues/issue-rules.js";
import type { IssueService } from "../issues/issue-service.js";
import { insertNewIssue, type NewIssueRecord, recountNewIssue } from "../issues/new-issue.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertAssignable, assertNotBlocked } from "../social/block-service.js";
import { headAccessOf, maintainerBranches, parseHead, resolveHeadRepo } from "./head-repo.js";
import type { PullChecker } from "./pull-check.js";
import { loadPullViews, type PullIssue, type PullView } from "./pull-views.js";

/** `POST /repos/{owner}/{repo}/pulls`, in service terms. */
export interface CreatePullInput {
  readonly head: string;
  readonly base: string;
  readonly title: string;
  readonly body?: string | undefined;
  readonly assignee?: string | undefined;
  readonly assignees?: readonly string[] | undefined;
  readonly milestoneId?: number | undefined;
  readonly labelIds?: readonly number[] | undefined;
  readonly dueDate?: Date | undefined;
}

/** The filters of `GET /repos/{owner}/{repo}/pulls`. */
export interface PullListQuery {
  readonly state?: string | undefined;
  readonly labelIds?: readonly number[] | undefined;
  readonly milestoneId?: number | undefined;
  readonly poster?: string | undefined;
}

/** The commits a new pull request brings, as its first `pull_push` entry records them. */
async function firstPush(git: GitRepository, from: string, head: string): Promise<string> {
  const { commits } = await rangeCommits(git, from, head, { skip: 0, limit: 250 });
  return JSON.stringify({ is_force_push: false, commit_ids: commits.map((c) => c.sha).reverse() });
}

/**
 * Pull requests of a repository (Forgejo's routers/api/v1/repo/pull.go and services/pull):
 * creating, reading and listing them. A pull request is an issue (same numbers, labels,
 * milestones, assignees, comments) with a head and a base in this repository; what merging them
 * gives is checked when it is created and again whenever one of them moved.
 */
export class PullService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly repos: RepoService,
    private readonly issues: IssueService,
    private readonly checker: PullChecker,
    private readonly access: AccessService,
  ) {}

  /** Creations of one repository run one at a time, so two requests cannot open the same pull request twice. */
  readonly #creating = new KeyedMutex();

  /** The pull request with this number, its state current; NotFoundError for an issue or a missing one. */
  async get(access: RepoAccess, index: number): Promise<PullIssue> {
    const issue = await this.issues.get(access, index);
    const pull = issue.isPull ? await pulls.findPullByIndex(this.ctx.db, access.repo.id, index) : undefined;
    if (!pull)
      throw new NotFoundError(`pull request does not exist [repo_id: ${access.repo.id}, index: ${index}]`);
    return this.refreshed(access, issue, pull);
  }

  /** The merged pull request whose merge commit `sha` is (Forgejo's GetPullRequestByMergedCommit); 404 otherwise. */
  async byMergedCommit(access: RepoAccess, sha: string): Promise<PullIssue> {
    const pull = await pulls.findPullByMergedCommit(this.ctx.db, access.repo.id, sha);
    if (!pull) throw new NotFoundError(`pull request does not exist [merged commit: ${sha}]`);
    return this.get(access, pull.index);
  }

  /** The pull request made current, with its issue read again if checking it closed it (its branch is gone). */
  private async refreshed(access: RepoAccess, issue: Issue, pull: PullRequest): Promise<PullIssue> {
    const current = await this.checker.current(access.repo, pull, issue.isClosed);
    if (current === pull) return { issue, pull };
    return { issue: (await issues.findIssueById(this.ctx.db, issue.id)) ?? issue, pull: current };
  }

  /** The API views of pull requests of the route's repository. */
  async views(access: RepoAccess, list: readonly PullIssue[]): Promise<PullView[]> {
    return loadPullViews(this.ctx.db, await this.repos.git(access.repo), access.repo, list, {
      statusChecks: (item) => this.checker.statusChecks(access.repo, item.pull, item.issue.isClosed),
      headGit: (repo) => this.repos.git(repo).catch(() => undefined),
    });
  }

  /** The branches of `repo` that `actor` may push to as a maintainer ({@link maintainerBranches}). */
  async maintainerBranches(actor: Actor, repo: Repository): Promise<string[]> {
    return maintainerBranches(this.ctx.db, this.access, actor, repo);
  }

  /** The head repository of a pull request as the caller sees it ({@link headAccessOf}). */
  async headAccess(access: RepoAccess, pull: PullRequest): Promise<RepoAccess | undefined> {
    return headAccessOf(this.access, access, pull);
  }

  /** A page of the repository's pull requests, newest first unless sorted otherwise; no `state` lists all, as Forgejo's code does. */
  async list(
    access: RepoAccess,
    query: PullListQuery,
    sort: IssueSort,
    page: PageRequest,
  ): Promise<Paged<PullIssue>> {
    if (!readsIssues(access, true)) throw new NotFoundError();
    let posterId: number | undefined;
    if (query.poster) {
      const poster = await users.findUserByName(this.ctx.db, query.poster);
      if (!poster) throw new InvalidArgumentError(`user does not exist [uid: 0, name: ${query.poster}]`);
      posterId = poster.id;
    }
    const state = query.state === "open" || query.state === "closed" ? query.state : "all";
    const found = await issueSearch.searchIssues(
      this.ctx.db,
      {
        repoIds: [access.repo.id],
        isPull: true,
        state,
        ...(query.labelIds && query.labelIds.length > 0 ? { labelGroups: [query.labelIds] } : {}),
        ...(query.milestoneId && query.milestoneId > 0 ? { milestoneIds: [query.milestoneId] } : {}),
        ...(posterId !== undefined ? { posterId } : {}),
      },
      sort,
      page,
    );
    return { items: await this.withPulls(access, found.items), total: found.total };
  }

  /** The pull request, in any state, from `head` to the branch `base` (newest if several). */
  async byBaseHead(access: RepoAccess, base: string, head: string): Promise<PullIssue> {
    if (!readsIssues(access, true)) throw new NotFoundError();
    const name = parseHead(head);
    const headRepo = await resolveHeadRepo(this.ctx.db, this.access, access, name);
    const pull = await pulls.findPullFor(this.ctx.db, {
      baseRepoId: access.repo.id,
      baseBranch: base,
      headRepoId: headRepo.repo.id,
      headBranch: name.branch,
    });
    const issue = pull && (await issues.findIssueById(this.ctx.db, pull.issueId));
    if (!pull || !issue) throw new NotFoundError();
    return this.refreshed(access, issue, pull);
  }

  /**
   * Opens a pull request (Forgejo's CreatePullRequest): checks in Forgejo's order and with its
   * messages, then one transaction numbers it with the repository's issues, records labels,
   * milestone, assignees and the first push, and notifies each concerned user once.
   */
  async create(access: RepoAccess, input: CreatePullInput): Promise<PullIssue> {
    return this.#creating.run(`repo:${access.repo.id}`, () => this.createNow(access, input));
  }

  private async createNow(access: RepoAccess, input: CreatePullInput): Promise<PullIssue> {
    const actor = writerOf(access);
    if (input.head === input.base) {
      throw new InvalidArgumentError(
        "Invalid PullRequest: There are no changes between the head and the base",
      );
    }
    await assertNotBlocked(this.ctx.db, [access.repo.ownerId], actor.id);
    const name = parseHead(input.head);
    const head = await resolveHeadRepo(this.ctx.db, this.access, access, name);
    const headRepo = head.repo;
    // Maintainers' edits are the head's to grant (Forgejo's SetAllowEdits): the base's default
    // applies only for a poster who may write to the head repository, or anyone could open a pull
    // request from someone else's branch into their own fork and push to that branch.
    const allowMaintainerEdit = allowsMaintainerEditsByDefault(access.repo, head);
    const git = await this.repos.git(access.repo);
    const full = `${access.repo.ownerName}/${access.repo.name}`;
    const baseSha = await branchTip(git, input.base);
    if (!baseSha) {
      throw new NotFoundError(
        `could not find '${input.base}' to be a commit, branch or tag in the base repository ${full}`,
      );
    }
    const headGit = headRepo.id === access.repo.id ? git : await this.repos.git(headRepo);
    const headSha = await branchTip(headGit, name.branch);
    if (!headSha) {
      throw new NotFoundError(
        `could not find '${name.branch}' to be a commit, branch or tag in the head repository ${headRepo.ownerName}/${headRepo.name}`,
      );
    }
    if (headRepo.id === access.repo.id && name.branch === input.base) {
      throw new InvalidArgumentError(
        "Invalid PullRequest: There are no changes between the head and the base",
      );
    }
    const pair = {
      baseRepoId: access.repo.id,
      baseBranch: input.base,
      headRepoId: headRepo.id,
      headBranch: name.branch,
    };
    const existing = await pulls.findOpenPullFor(this.ctx.db, pair);
    if (existing) {
      throw new AlreadyExistsError(
        `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.index}, head_repo_id: ${existing.headRepoId}, base_repo_id: ${existing.baseRepoId}, head_branch: ${existing.headBranch}, base_branch: ${existing.baseBranch}]`,
      );
    }
    const labelList = input.labelIds?.length
      ? await labels.usableLabelsByIds(this.ctx.db, access.repo.id, access.repo.ownerId, input.labelIds)
      : [];
    const milestone = input.milestoneId
      ? await milestones.findMilestone(this.ctx.db, access.repo.id, input.milestoneId)
      : undefined;
    if (input.milestoneId && input.milestoneId > 0 && !milestone) throw new NotFoundError();
    const assignees = await resolveAssignees(
      this.ctx.db,
      this.permissions,
      access.repo,
      input.assignee,
      input.assignees,
    );
    await assertAssignable(
      this.ctx.db,
      [access.repo.ownerId],
      actor.id,
      assignees.map((user) => user.id),
    );
    const body = input.body ?? "";
    const mentioned = await users.findUsersByNames(this.ctx.db, mentionedNames(body));
    // A fork's head commits are copied into the base, where every pull request is checked and merged.
    await this.checker.heads.fetch(access.repo, git, pair, headSha);
    const state = await this.checker.compute(access.repo, git, input.base, { base: baseSha, head: headSha });
    const push = await firstPush(git, state.mergeBase || baseSha, headSha);
    const record: NewIssueRecord = {
      repoId: access.repo.id,
      poster: actor,
      title: input.title,
      body,
      ref: "",
      milestone,
      labels: labelList,
      assignees,
      mentioned,
      deadline: input.dueDate ?? null,
      isPull: true,
    };
    const now = new Date();
    const created = await this.ctx.db.transaction().execute(async (trx) => {
      const issue = await insertNewIssue(trx, record, now);
      const pull = await pulls.insertPull(
        trx,
        {
          ...pair,
          issueId: issue.id,
          index: issue.index,
          allowMaintainerEdit,
        },
        state,
      );
      await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.pullPush, posterId: actor.id, content: push },
        now,
      );
      await recountNewIssue(trx, record);
      // Forgejo's NewPullRequest: `opened` (its assignments are not notified one by one).
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actor.id, now),
        type: "pull_request",
        action: "opened",
        issueId: issue.id,
      });
      return { issue: (await issues.findIssueById(trx, issue.id)) as Issue, pull };
    });
    // After the commit: a failed transaction must not leave a ref behind; a crash before this line
    // is mended by the next read, which sets the ref of a head it finds missing.
    await setPullHead(git, created.pull.index, headSha);
    return created;
  }

  private async withPulls(access: RepoAccess, list: readonly Issue[]): Promise<PullIssue[]> {
    const found = await pulls.findPullsByIssueIds(
      this.ctx.db,
      list.map((issue) => issue.id),
    );
    const byIssue = new Map(found.map((pull) => [pull.issueId, pull]));
    const result: PullIssue[] = [];
    for (const issue of list) {
      const pull = byIssue.get(issue.id);
      if (!pull) continue;
      // A list does not wait for checks: a pull request whose branches moved shows `checking`
      // (not mergeable, as Forgejo while its queue works) and is checked in the background.
      if (issue.isClosed || pull.hasMerged || (await this.checker.isCurrent(access.repo, pull))) {
        result.push({ issue, pull });
      } else {
        this.checker.schedule(access.repo, pull);
        result.push({ issue, pull: { ...pull, status: PullStatus.checking } });
      }
    }
    return result;
  }
}
