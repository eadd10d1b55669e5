import { BadRequestError, NotFoundError, type Repository } from "@kiln/domain";
import {
  type BlobInfo,
  type GetTreeOptions,
  getBlob,
  getTree,
  languageStats,
  listRefs,
  type RefInfo,
  type TreeListing,
} from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";

const badRequest = (message: string) => new BadRequestError(message);
/** Forgejo answers any failure to read a tree or blob with 400, a missing object included. */
const asBadRequest = { not_found: badRequest, invalid_argument: badRequest, empty_repository: badRequest };

/** Refs, trees, blobs and language statistics (Forgejo's git_ref.go, tree.go, blob.go, languages). */
export class GitObjectService {
  constructor(private readonly repos: RepoService) {}

  /** Refs whose full name starts with `refs/<prefix>` (every ref without one); 404 when none does. */
  async refs(repo: Repository, prefix = ""): Promise<RefInfo[]> {
    const git = await this.repos.git(repo);
    const refs = await withGitErrors(() => listRefs(git, `refs/${prefix}`));
    if (refs.length === 0) throw new NotFoundError();
    return refs;
  }

  /** A page of the tree named by a tree sha, commit sha, branch or tag; 400 when there is none. */
  async tree(repo: Repository, sha: string, options: GetTreeOptions): Promise<TreeListing> {
    const git = await this.repos.git(repo);
    return withGitErrors(() => getTree(git, sha, options), asBadRequest);
  }

  /** A blob by sha, base64-encoded up to `maxSize` bytes (without content beyond); 400 when there is none. */
  async blob(repo: Repository, sha: string, maxSize: number): Promise<BlobInfo> {
    const git = await this.repos.git(repo);
    return withGitErrors(() => getBlob(git, sha, maxSize), asBadRequest);
  }

  /** Bytes per language on the default branch; empty for an empty repository. */
  async languages(repo: Repository): Promise<Record<string, number>> {
    const git = await this.repos.git(repo);
    return withGitErrors(() => languageStats(git));
  }
}
