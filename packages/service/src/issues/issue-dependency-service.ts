import {
  BadRequestError,
  CommentType,
  InvalidArgumentError,
  type Issue,
  isKilnError,
  NotFoundError,
} from "@kiln/domain";
import { comments, issueRelations, issues } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import { readsIssues, writesIssues } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import type { IssueService } from "./issue-service.js";

/** The most dependencies an issue may have, and the most issues one may block. */
export const MAX_DEPENDENCIES = 1000;

/** An issue named in a request body (Forgejo's `IssueMeta`). */
export interface IssueRef {
  readonly owner?: string | undefined;
  readonly repo?: string | undefined;
  readonly index?: number | undefined;
}

/** An issue with the caller's access to its repository. */
interface Located {
  readonly issue: Issue;
  readonly access: RepoAccess;
}

/**
 * Blocking dependencies between issues (Forgejo's routers/api/v1/repo/issue_dependency.go): an
 * issue is blocked by its dependencies and cannot be closed while one is open. Changing them
 * needs write access to the blocked issue's repository, which must not be archived, and read
 * access to the blocker's (404 otherwise, as Forgejo answers). An issue
 * the caller may not read is left out of every list (Forgejo shows a `HIDDEN` stand-in; Kiln does
 * not tell that it exists).
 */
export class IssueDependencyService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
    private readonly issueService: IssueService,
  ) {}

  private checkEnabled(): void {
    if (!this.ctx.settings.service.enableDependencies)
      throw new NotFoundError("issue dependencies are disabled");
  }

  /** The issues that block the issue, as far as the caller may read them. */
  async dependencies(access: RepoAccess, index: number): Promise<Issue[]> {
    this.checkEnabled();
    const issue = await this.issueService.get(access, index);
    return this.readable(access, await issueRelations.blockersOf(this.ctx.db, issue.id, MAX_DEPENDENCIES));
  }

  /** The issues the issue blocks, as far as the caller may read them. */
  async blocks(access: RepoAccess, index: number): Promise<Issue[]> {
    this.checkEnabled();
    const issue = await this.issueService.get(access, index);
    return this.readable(access, await issueRelations.blockedBy(this.ctx.db, issue.id, MAX_DEPENDENCIES));
  }

  /**
   * Makes `blocked` depend on `blocker`; `blockedIsPath` says which of the two the route's path
   * names (the other comes from the body). Answers the issue the path names.
   */
  async add(access: RepoAccess, index: number, ref: IssueRef, blockedIsPath: boolean): Promise<Issue> {
    const { blocked, blocker, path } = await this.pair(access, index, ref, blockedIsPath);
    if (blocked.issue.id === blocker.issue.id)
      throw new InvalidArgumentError("an issue cannot depend on itself");
    if (await issueRelations.dependencyExists(this.ctx.db, blocked.issue.id, blocker.issue.id)) {
      throw new InvalidArgumentError("issue dependency already exists");
    }
    if (await issueRelations.dependencyExists(this.ctx.db, blocker.issue.id, blocked.issue.id)) {
      throw new InvalidArgumentError("circular dependency: the other issue already depends on this one");
    }
    const counts = await issueRelations.dependencyCounts(this.ctx.db, blocked.issue.id, blocker.issue.id);
    if (counts.dependencies >= MAX_DEPENDENCIES || counts.blocks >= MAX_DEPENDENCIES) {
      throw new InvalidArgumentError(
        `an issue may have at most ${MAX_DEPENDENCIES} dependencies and block as many`,
      );
    }
    const actor = writerOf(access);
    await this.ctx.db.transaction().execute(async (trx) => {
      await issueRelations.addDependency(trx, blocked.issue.id, blocker.issue.id, actor.id);
      await this.events(trx, CommentType.addDependency, blocked.issue, blocker.issue, actor.id);
    });
    return path.issue;
  }

  /** Removes the dependency of `blocked` on `blocker` (404 when there is none). */
  async remove(access: RepoAccess, index: number, ref: IssueRef, blockedIsPath: boolean): Promise<Issue> {
    const { blocked, blocker, path } = await this.pair(access, index, ref, blockedIsPath);
    const actor = writerOf(access);
    await this.ctx.db.transaction().execute(async (trx) => {
      if (!(await issueRelations.removeDependency(trx, blocked.issue.id, blocker.issue.id))) {
        throw new NotFoundError("issue dependency does not exist");
      }
      await this.events(trx, CommentType.removeDependency, blocked.issue, blocker.issue, actor.id);
    });
    return path.issue;
  }

  /** Both issues get the event, each naming the other (Forgejo's createIssueDependencyComment). */
  private async events(
    trx: typeof this.ctx.db,
    type: number,
    blocked: Issue,
    blocker: Issue,
    posterId: number,
  ) {
    const at = new Date();
    await comments.insertComment(
      trx,
      { issueId: blocked.id, type, posterId, dependentIssueId: blocker.id },
      at,
    );
    await comments.insertComment(
      trx,
      { issueId: blocker.id, type, posterId, dependentIssueId: blocked.id },
      at,
    );
  }

  private async pair(repoAccess: RepoAccess, index: number, ref: IssueRef, blockedIsPath: boolean) {
    this.checkEnabled();
    const path: Located = { issue: await this.issueService.get(repoAccess, index), access: repoAccess };
    const other = await this.locate(repoAccess, ref);
    const blocked = blockedIsPath ? path : other;
    const blocker = blockedIsPath ? other : path;
    // Forgejo answers 404 for both (createIssueDependency): an archived blocked issue, and one the
    // caller may not change. (Through …/dependencies the route refuses an archived one with 423 first.)
    if (blocked.access.repo.isArchived || !writesIssues(blocked.access, blocked.issue.isPull)) {
      throw new NotFoundError();
    }
    return { blocked, blocker, path };
  }

  /** The issue a body names, in the route's repository or (when allowed) another the caller may read. */
  private async locate(repoAccess: RepoAccess, ref: IssueRef): Promise<Located> {
    const sameRepo =
      (ref.owner ?? repoAccess.repo.ownerName).toLowerCase() === repoAccess.repo.ownerName.toLowerCase() &&
      (ref.repo ?? repoAccess.repo.name).toLowerCase() === repoAccess.repo.name.toLowerCase();
    if (!sameRepo && !this.ctx.settings.service.allowCrossRepositoryDependencies) {
      throw new BadRequestError("CrossRepositoryDependencies not enabled");
    }
    const access = sameRepo
      ? repoAccess
      : await this.access.repo(repoAccess.actor, ref.owner ?? "", ref.repo ?? "");
    const index = ref.index ?? 0;
    const issue = await issues.findIssueByIndex(this.ctx.db, access.repo.id, index);
    if (!issue || !readsIssues(access, issue.isPull)) {
      throw new NotFoundError(`issue does not exist [repo_id: ${access.repo.id}, index: ${index}]`);
    }
    return { issue, access };
  }

  /** The issues of a list whose repositories let the caller read them. */
  private async readable(repoAccess: RepoAccess, list: readonly Issue[]): Promise<Issue[]> {
    const readableRepos = new Map<number, RepoAccess | null>([[repoAccess.repo.id, repoAccess]]);
    for (const repoId of new Set(list.map((issue) => issue.repoId))) {
      if (readableRepos.has(repoId)) continue;
      readableRepos.set(
        repoId,
        await this.access.repoById(repoAccess.actor, repoId).catch((err: unknown) => {
          if (isKilnError(err) && (err.kind === "not_found" || err.kind === "permission_denied")) return null;
          throw err;
        }),
      );
    }
    return list.filter((issue) => {
      const access = readableRepos.get(issue.repoId);
      return access ? readsIssues(access, issue.isPull) : false;
    });
  }
}
