import { ConflictError, NotFoundError, type Repository } from "@kiln/domain";
import { type CommitDetail, type CommitInfo, type GitRepository, getCommit, listCommits } from "@kiln/git";
import type { CommitVerification, CommitVerifier } from "../keys/commit-verifier.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import type { UserService } from "../users/user-service.js";
import { type CommitUsers, commitUsers } from "./commit-users.js";

/** A commit with, when asked for, the files it changed and its line stats. */
export type CommitEntry = CommitInfo & Partial<Pick<CommitDetail, "files" | "stats">>;

/** Commits plus the accounts of their authors and committers. */
export interface CommitsView {
  readonly commits: readonly CommitEntry[];
  readonly users: CommitUsers;
  /** Each commit's signature check, by sha (absent when not asked for). */
  readonly verifications?: ReadonlyMap<string, CommitVerification>;
}

/** What to include per commit: `files` and `stat` each cost a diff against the first parent. */
export interface CommitDetailOptions {
  readonly files?: boolean;
  readonly stat?: boolean;
  /** Check signatures (default true): one key lookup for the whole list. */
  readonly verification?: boolean;
}

/** Options of {@link CommitService.list}. */
export interface ListCommitsInput extends CommitDetailOptions {
  readonly sha?: string;
  readonly path?: string;
  readonly page: number;
  readonly limit: number;
}

const emptyRepository = { empty_repository: () => new ConflictError("Git Repository is empty.") };

/** Reads history through `@kiln/git` (Forgejo's commits.go). */
export class CommitService {
  constructor(
    private readonly repos: RepoService,
    private readonly users: UserService,
    private readonly verifier?: CommitVerifier,
  ) {}

  /**
   * One page of history from `sha` (default branch when absent), optionally only commits that
   * touch `path`. 409 on an empty repository, 404 for an unknown start or a path no commit touched;
   * `total` counts the whole history (Forgejo's `X-Total-Count`).
   */
  async list(
    repo: Repository,
    input: ListCommitsInput,
  ): Promise<CommitsView & { readonly total: number; readonly hasMore: boolean }> {
    const git = await this.repos.git(repo);
    const page = await withGitErrors(
      () =>
        listCommits(git, {
          ...(input.sha ? { sha: input.sha } : {}),
          ...(input.path ? { path: input.path } : {}),
          page: input.page,
          limit: input.limit,
        }),
      emptyRepository,
    );
    if (input.path && page.total === 0) throw new NotFoundError(`no commit touches ${input.path}`);
    return { ...(await this.describe(repo, page.commits, input)), hasMore: page.hasMore, total: page.total };
  }

  /**
   * Commits already found (a page of history, a pull request's), with their files and stats as asked
   * and their accounts; `git` reads them instead of the repository's own (a joined view across forks).
   */
  async describe(
    repo: Repository,
    found: readonly CommitInfo[],
    options: CommitDetailOptions,
    git?: GitRepository,
  ): Promise<CommitsView> {
    const commits: CommitEntry[] = [];
    for (const commit of found) commits.push(await this.detail(repo, commit, options, git));
    return {
      commits,
      users: await commitUsers(this.users, emailsOf(commits)),
      ...(await this.verifications(repo, commits, options, git)),
    };
  }

  /** One commit named by a sha, short sha, branch, tag or full ref; 404 when nothing matches. */
  async get(repo: Repository, ref: string, options: CommitDetailOptions = {}): Promise<CommitsView> {
    const git = await this.repos.git(repo);
    const wantsDiff = options.files !== false || options.stat !== false;
    const commit = await withGitErrors(() => getCommit(git, ref, { files: wantsDiff }));
    const entry = trim(commit, options);
    return {
      commits: [entry],
      users: await commitUsers(this.users, emailsOf([entry])),
      ...(await this.verifications(repo, [entry], options)),
    };
  }

  /** The signature checks of commits, unless `verification: false` asked to skip them. */
  private async verifications(
    repo: Repository,
    commits: readonly CommitInfo[],
    options: CommitDetailOptions,
    read?: GitRepository,
  ): Promise<{ verifications?: ReadonlyMap<string, CommitVerification> }> {
    if (!this.verifier || options.verification === false || commits.length === 0) return {};
    const git = read ?? (await this.repos.git(repo));
    return { verifications: await this.verifier.verify(git.gitdir, commits) };
  }

  private async detail(
    repo: Repository,
    commit: CommitInfo,
    options: CommitDetailOptions,
    read?: GitRepository,
  ) {
    if (options.files === false && options.stat === false) return commit;
    const git = read ?? (await this.repos.git(repo));
    return trim(await withGitErrors(() => getCommit(git, commit.sha)), options);
  }
}

function trim(commit: CommitDetail, options: CommitDetailOptions): CommitEntry {
  const { files, stats, ...info } = commit;
  return {
    ...info,
    ...(options.files !== false ? { files } : {}),
    ...(options.stat !== false ? { stats } : {}),
  };
}

function emailsOf(commits: readonly CommitInfo[]): string[] {
  return commits.flatMap((c) => [c.author.email, c.committer.email]);
}
