import type { Repository } from "@kiln/domain";
import { commitDiffStream, getCommitInfos, resolveCommitSha } from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";

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
}
