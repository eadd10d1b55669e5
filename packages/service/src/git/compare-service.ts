import { NotFoundError } from "@kiln/domain";
import {
  type ComparedFile,
  changedFiles,
  type GitRepository,
  mergeBase,
  rangeCommits,
  resolveCommitSha,
  withJoinedObjects,
} from "@kiln/git";
import type { RepoAccess } from "../access/access-service.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import type { CommitDetailOptions, CommitService, CommitsView } from "./commit-service.js";

/** At most this many commits are described in a comparison (`total_commits` counts them all). */
export const MAX_COMPARE_COMMITS = 250;

/** A comparison of two refs (Forgejo's `Compare`). */
export interface CompareView extends CommitsView {
  readonly totalCommits: number;
  readonly files: readonly ComparedFile[];
}

/** A `basehead` path parameter split as Forgejo's CompareDiff splits it. */
export interface BaseHead {
  readonly base: string;
  /** The head ref, without any `owner:` or `owner/repo:` prefix. */
  readonly head: string;
  /** The head's owner (and repository name) when the head named them. */
  readonly headOwner?: string;
  readonly headRepo?: string;
  /** `base..head` compares the two directly; `base...head` from their merge base. */
  readonly direct: boolean;
}

/**
 * Splits `base...head`, `base..head` or a lone `head` (compared with the default branch), and a
 * head of the form `owner:branch` or `owner/repo:branch`.
 */
export function parseBaseHead(basehead: string, defaultBranch: string): BaseHead {
  let base = defaultBranch;
  let head = basehead;
  let direct = false;
  const three = basehead.indexOf("...");
  const two = basehead.indexOf("..");
  if (three >= 0) {
    base = basehead.slice(0, three);
    head = basehead.slice(three + 3);
  } else if (two >= 0) {
    base = basehead.slice(0, two);
    head = basehead.slice(two + 2);
    direct = true;
  }
  const colon = head.indexOf(":");
  if (colon < 0) return { base, head, direct };
  const owner = head.slice(0, colon);
  const slash = owner.indexOf("/");
  return {
    base,
    head: head.slice(colon + 1),
    direct,
    ...(slash >= 0
      ? { headOwner: owner.slice(0, slash), headRepo: owner.slice(slash + 1) }
      : { headOwner: owner }),
  };
}

/** Finds the repository an `owner:` or `owner/repo:` head names, for the caller (the pull requests' rule). */
export type HeadResolver = (
  access: RepoAccess,
  name: { readonly owner?: string; readonly repo?: string },
) => Promise<RepoAccess>;

/**
 * `GET /repos/{owner}/{repo}/compare/{basehead}` (Forgejo's CompareDiff): the commits the head has
 * that the base lacks, newest first, and the files that differ. A head in a fork of the repository
 * (or in its parent) is named `owner:ref`, found as a pull request's head is; the comparison then
 * reads both repositories' objects through a joined view, and copies nothing: a read (anonymous
 * ones included) must not make this repository hold, and its owner pay for, another's objects.
 */
export class CompareService {
  constructor(
    private readonly repos: RepoService,
    private readonly commits: CommitService,
    private readonly heads: HeadResolver,
  ) {}

  async compare(access: RepoAccess, basehead: string, options: CommitDetailOptions): Promise<CompareView> {
    const { repo } = access;
    const spec = parseBaseHead(basehead, repo.defaultBranch);
    const headRepo = (
      await this.heads(access, {
        ...(spec.headOwner !== undefined ? { owner: spec.headOwner } : {}),
        ...(spec.headRepo !== undefined ? { repo: spec.headRepo } : {}),
      })
    ).repo;
    if (spec.base === "" || spec.head === "") throw new NotFoundError("the base or head does not exist");
    const git = await this.repos.git(repo);
    const headGit = headRepo.id === repo.id ? git : await this.repos.git(headRepo);
    const resolve = (where: GitRepository, name: string, what: string) =>
      withGitErrors(() => resolveCommitSha(where, name), {
        not_found: () => new NotFoundError(`${what} ${name} does not exist`),
        empty_repository: () => new NotFoundError(`${what} ${name} does not exist`),
        invalid_argument: () => new NotFoundError(`${what} ${name} does not exist`),
      });
    const base = await resolve(git, spec.base, "base");
    const head = await resolve(headGit, spec.head, "head");
    const run = async (read: GitRepository): Promise<CompareView> => {
      const from = spec.direct ? base : ((await mergeBase(read, base, head)) ?? base);
      const range = await rangeCommits(read, from, head, { skip: 0, limit: MAX_COMPARE_COMMITS });
      const files = await changedFiles(read, from, head);
      const view = await this.commits.describe(repo, range.commits, options, read);
      return { ...view, totalCommits: range.total, files };
    };
    return headGit === git ? run(git) : withJoinedObjects(git, headGit, run);
  }
}
