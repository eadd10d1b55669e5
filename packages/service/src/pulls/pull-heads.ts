import { isKilnError, type PullRequest, type Repository } from "@kiln/domain";
import { fetchCommit, type GitRepository } from "@kiln/git";
import { repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";

/**
 * Where a pull request's head branch lives: in its base repository, or in a fork (or the base's
 * parent). Every pull request is checked and merged in its base, so a fork's head commits are
 * copied there (objects only) before the base reads them, and kept by `refs/pull/N/head`.
 */
export class PullHeads {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
  ) {}

  /** The git repository of a pull request's head branch; undefined once its repository is gone. */
  async git(
    repo: Repository,
    git: GitRepository,
    pull: Pick<PullRequest, "headRepoId">,
  ): Promise<GitRepository | undefined> {
    if (pull.headRepoId === repo.id) return git;
    if (pull.headRepoId === null) return undefined;
    const head = await repositories.findRepositoryById(this.ctx.db, pull.headRepoId);
    if (!head) return undefined;
    return this.repos.git(head).catch((err: unknown) => {
      if (isKilnError(err) && err.kind === "not_found") return undefined;
      throw err;
    });
  }

  /** Copies a fork's head commit into the base repository (nothing to do for a head in the base). */
  async fetch(
    repo: Repository,
    git: GitRepository,
    pull: Pick<PullRequest, "headRepoId">,
    head: string,
  ): Promise<void> {
    if (pull.headRepoId === repo.id) return;
    const headGit = await this.git(repo, git, pull);
    if (headGit) await fetchCommit(git, headGit, head);
  }
}
