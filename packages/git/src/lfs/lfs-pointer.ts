/** The largest blob that can be an LFS pointer file (git-lfs and Forgejo's `MetaFileMaxSize`). */
export const LFS_POINTER_MAX_SIZE = 1024;

/** What an LFS pointer file names. */
export interface LfsPointer {
  readonly oid: string;
  readonly size: number;
}

/**
 * Reads an LFS pointer file (git-lfs's spec v1: a `version` line, then `oid sha256:<64 hex>` and
 * `size <bytes>` among its keys), or undefined when the bytes are not one.
 */
export function parseLfsPointer(bytes: Uint8Array): LfsPointer | undefined {
  if (bytes.length > LFS_POINTER_MAX_SIZE) return undefined;
  const text = Buffer.from(bytes).toString("utf8");
  const lines = text.split("\n");
  if (lines[0] !== "version https://git-lfs.github.com/spec/v1") return undefined;
  let oid: string | undefined;
  let size: number | undefined;
  for (const line of lines.slice(1)) {
    const match = /^oid sha256:([0-9a-f]{64})$/.exec(line);
    if (match) oid = match[1];
    const sized = /^size (\d{1,15})$/.exec(line);
    if (sized) size = Number(sized[1]);
  }
  return oid !== undefined && size !== undefined ? { oid, size } : undefined;
}
