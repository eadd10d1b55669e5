import type { Repository } from "@kiln/domain";
import { commitDiffStream, getCommitInfos, resolveCommitSha } from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { DEFAULT_DIFF_LIMITS, type DiffLimits, type ParsedDiff } from "./diff-parse.js";
import { readDiff } from "./diff-read.js";

/** One commit's diff or patch (Forgejo's DownloadCommitDiffOrPatch), streamed from git. */
export class CommitDiffService {
  constructor(private readonly repos: RepoService) {}

  /** The commit a sha or ref names, as a diff against its first parent or a patch; 404 when none. */
  async raw(
    repo: Repository,
    name: string,
    options: { patch: boolean },
  ): Promise<ReadableStream<Uint8Array>> {
    const git = await this.repos.git(repo);
    const [commit] = await withGitErrors(async () =>
      getCommitInfos(git, [await resolveCommitSha(git, name)]),
    );
    if (!commit) throw new Error(`commit ${name} resolved to nothing`);
    return commitDiffStream(git, commit, options);
  }

  /**
   * The commit's diff against its first parent, parsed into files, hunks and lines within `limits`
   * (Forgejo's commit page); 404 when the name resolves to no commit.
   */
  async parsed(
    repo: Repository,
    name: string,
    limits: DiffLimits = DEFAULT_DIFF_LIMITS,
  ): Promise<ParsedDiff> {
    return readDiff(await this.raw(repo, name, { patch: false }), limits);
  }
}
