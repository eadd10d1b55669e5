import { BadRequestError, type Repository } from "@kiln/domain";
import { type AnnotatedTagInfo, getAnnotatedTag } from "@kiln/git";
import type { CommitVerification, CommitVerifier } from "../keys/commit-verifier.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";

/** An annotated tag with the signature check of the commit it points at (as Forgejo's ToAnnotatedTag). */
export interface AnnotatedTagView {
  readonly tag: AnnotatedTagInfo;
  readonly verification?: CommitVerification;
}

const badRequest = (message: string) => new BadRequestError(message);

/** `GET /repos/{owner}/{repo}/git/tags/{sha}` (Forgejo's GetAnnotatedTag): any failure to read it is 400. */
export class AnnotatedTagService {
  constructor(
    private readonly repos: RepoService,
    private readonly verifier?: CommitVerifier,
  ) {}

  /** The tag object with this sha; 400 when there is none or the sha names something else. */
  async get(repo: Repository, sha: string): Promise<AnnotatedTagView> {
    const git = await this.repos.git(repo);
    const tag = await withGitErrors(() => getAnnotatedTag(git, sha), {
      not_found: badRequest,
      invalid_argument: badRequest,
      empty_repository: badRequest,
    });
    const verification =
      tag.commit && this.verifier
        ? (await this.verifier.verify(git.gitdir, [tag.commit])).get(tag.commit.sha)
        : undefined;
    return { tag, ...(verification ? { verification } : {}) };
  }
}
