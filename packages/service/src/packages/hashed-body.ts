import { createHash, type Hash } from "node:crypto";

/** The hashes Forgejo keeps of a package file (the sha256 is the blob's key). */
export interface FileHashes {
  readonly md5: string;
  readonly sha1: string;
  readonly sha512: string;
}

/**
 * Passes `body` through unchanged while hashing it (md5, sha1, sha512), so the hashes of a
 * streamed upload are known once it is stored, without reading it twice. `digest()` answers them
 * after the last chunk went through.
 */
export function hashedBody(body: AsyncIterable<Uint8Array>): {
  readonly body: AsyncIterable<Uint8Array>;
  digest(): FileHashes;
} {
  const hashes: Record<keyof FileHashes, Hash> = {
    md5: createHash("md5"),
    sha1: createHash("sha1"),
    sha512: createHash("sha512"),
  };
  async function* pass(): AsyncIterable<Uint8Array> {
    for await (const chunk of body) {
      hashes.md5.update(chunk);
      hashes.sha1.update(chunk);
      hashes.sha512.update(chunk);
      yield chunk;
    }
  }
  return {
    body: pass(),
    digest: () => ({
      md5: hashes.md5.digest("hex"),
      sha1: hashes.sha1.digest("hex"),
      sha512: hashes.sha512.digest("hex"),
    }),
  };
}
