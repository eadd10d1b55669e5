import { NotFoundError, offsetOf, type Paged, type PageRequest } from "@kiln/domain";
import { type CommitInfo, type ComparedFile, changedFiles, diffStream, rangeCommits } from "@kiln/git";
import type { RepoAccess } from "../access/access-service.js";
import { DEFAULT_DIFF_LIMITS, type DiffLimits, type ParsedDiff } from "../git/diff-parse.js";
import { readDiff } from "../git/diff-read.js";
import type { RepoService } from "../repos/repo-service.js";
import type { PullService } from "./pull-service.js";

const WHITESPACE = ["ignore-all", "ignore-change", "ignore-eol"] as const;

/**
 * What a pull request changes: its commits, its files and its diff or patch, all from its merge
 * base to its head (`refs/pull/N/head` once the branch is gone), in the base repository.
 */
export class PullCompareService {
  constructor(
    private readonly repos: RepoService,
    private readonly pullService: PullService,
  ) {}

  /** A page of the pull request's commits, newest first, with how many there are. */
  async commits(access: RepoAccess, index: number, page: PageRequest): Promise<Paged<CommitInfo>> {
    const { pull } = await this.pullService.get(access, index);
    if (!pull.mergeBase || !pull.headCommitId) return { items: [], total: 0 };
    const git = await this.repos.git(access.repo);
    const found = await rangeCommits(git, pull.mergeBase, pull.headCommitId, {
      skip: Math.max(0, offsetOf(page)),
      limit: page.limit,
    });
    return { items: found.commits, total: found.total };
  }

  /** A page of the files the pull request changes, in git's order, with the head they are read at. */
  async files(
    access: RepoAccess,
    index: number,
    page: PageRequest,
    options: { readonly skipTo?: string | undefined; readonly whitespace?: string | undefined } = {},
  ): Promise<{ files: Paged<ComparedFile>; headSha: string }> {
    const { pull } = await this.pullService.get(access, index);
    if (!pull.mergeBase || !pull.headCommitId) {
      return { files: { items: [], total: 0 }, headSha: pull.headCommitId };
    }
    const whitespace = WHITESPACE.find((choice) => choice === options.whitespace);
    let all = await changedFiles(await this.repos.git(access.repo), pull.mergeBase, pull.headCommitId, {
      ...(whitespace ? { whitespace } : {}),
    });
    // `skip-to`: the list starts at that file and the total counts what is left (Forgejo with git ≥ 2.31).
    if (options.skipTo) {
      const at = all.findIndex((file) => file.filename === options.skipTo);
      all = at < 0 ? [] : all.slice(at);
    }
    const start = Math.max(0, offsetOf(page));
    return {
      files: { items: all.slice(start, start + page.limit), total: all.length },
      headSha: pull.headCommitId,
    };
  }

  /** The pull request's diff (`git diff -p`) or patch series (`git format-patch`), streamed. */
  async diff(
    access: RepoAccess,
    index: number,
    options: { readonly patch: boolean; readonly binary: boolean },
  ): Promise<ReadableStream<Uint8Array>> {
    const { pull } = await this.pullService.get(access, index);
    const base = pull.mergeBase || pull.baseCommitId;
    if (!base || !pull.headCommitId)
      throw new NotFoundError("the pull request's base or head branch is gone");
    const git = await this.repos.git(access.repo);
    return diffStream(git, base, pull.headCommitId, options);
  }

  /**
   * The pull request's diff from its merge base to its head, parsed within `limits` (Forgejo's
   * files tab), with the head it was read at; empty when the base or head is gone.
   */
  async parsedDiff(
    access: RepoAccess,
    index: number,
    limits: DiffLimits = DEFAULT_DIFF_LIMITS,
  ): Promise<{ diff: ParsedDiff; headSha: string }> {
    const { pull } = await this.pullService.get(access, index);
    const base = pull.mergeBase || pull.baseCommitId;
    if (!base || !pull.headCommitId) {
      return { diff: { files: [], incomplete: false, additions: 0, deletions: 0 }, headSha: "" };
    }
    const git = await this.repos.git(access.repo);
    return {
      diff: await readDiff(diffStream(git, base, pull.headCommitId), limits),
      headSha: pull.headCommitId,
    };
  }
}
