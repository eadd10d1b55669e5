import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { isoContext } from "./iso.js";
import { objectInfo, readBlobCached } from "./object-cache.js";

/**
 * A blob as Forgejo's `/git/blobs/{sha}` shows it: its bytes base64-encoded, or no content at all
 * (`encoding` and `content` null) when it is larger than the limit the caller gives
 * (`[api] DEFAULT_MAX_BLOB_SIZE`), so that no request holds a large blob in memory.
 */
export interface BlobInfo {
  readonly sha: string;
  readonly size: number;
  readonly encoding: "base64" | null;
  /** The blob's bytes, base64-encoded; null above the size limit. */
  readonly content: string | null;
}

/** Reads a blob by sha, its content only up to `maxSize` bytes; throws not-found when it is missing or not a blob. */
export async function getBlob(
  repo: GitRepository,
  sha: string,
  maxSize = Number.POSITIVE_INFINITY,
): Promise<BlobInfo> {
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new GitNotFoundError(`blob ${sha} does not exist`);
  const ctx = isoContext(repo);
  const header = await objectInfo(ctx, sha);
  if (header?.type !== "blob") throw new GitNotFoundError(`blob ${sha} does not exist`);
  if (header.size > maxSize) return { sha, size: header.size, encoding: null, content: null };
  const blob = await readBlobCached(ctx, sha);
  return { sha, size: blob.length, encoding: "base64", content: Buffer.from(blob).toString("base64") };
}
