import git from "isomorphic-git";
import { GitNotFoundError } from "../errors/git-error.js";
import type { GitRepository } from "../storage/git-repository.js";
import { isIsoNotFound, isoContext } from "./iso.js";

/** A blob as Forgejo's `/git/blobs/{sha}` shows it. */
export interface BlobInfo {
  readonly sha: string;
  readonly size: number;
  readonly encoding: "base64";
  /** The blob's bytes, base64-encoded. */
  readonly content: string;
}

/** Reads a blob by sha; throws not-found when it is missing or not a blob. */
export async function getBlob(repo: GitRepository, sha: string): Promise<BlobInfo> {
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new GitNotFoundError(`blob ${sha} does not exist`);
  try {
    const { blob } = await git.readBlob({ ...isoContext(repo), oid: sha });
    return { sha, size: blob.length, encoding: "base64", content: Buffer.from(blob).toString("base64") };
  } catch (error) {
    if (isIsoNotFound(error) || (error as { code?: string }).code === "ObjectTypeError") {
      throw new GitNotFoundError(`blob ${sha} does not exist`, { cause: error });
    }
    throw error;
  }
}
