import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { type Leftover, leftoversIn } from "../disk/leftovers.js";
import { GitInvalidArgumentError, GitNotFoundError, LfsVerifyError } from "../errors/git-error.js";
import { isValidLfsOid, isValidLfsSize } from "./lfs-oid.js";
import type { LfsReferences } from "./lfs-references.js";

export type { LfsReferences, LfsViewer } from "./lfs-references.js";

/** What {@link LfsStore.put} stored. */
export interface LfsPutResult {
  readonly oid: string;
  readonly size: number;
  /** False when the object was already in the store (the upload was not needed). */
  readonly created: boolean;
}

function requireOid(oid: string): void {
  if (!isValidLfsOid(oid)) throw new GitInvalidArgumentError(`invalid LFS oid: ${oid}`);
}

/**
 * A content-addressed store of LFS objects at `<root>/ab/cd/<oid>`, shared by all repositories
 * (which repository references which object is the database's business: `references`, when the
 * store's owner attaches them). Uploads are verified and renamed into place atomically, so a
 * partial upload is never visible.
 */
export class LfsStore {
  readonly root: string;
  /** Which repository references which object, when the store's owner keeps track of it. */
  readonly references: LfsReferences | undefined;

  constructor(root: string, options: { readonly references?: LfsReferences } = {}) {
    this.root = root;
    this.references = options.references;
  }

  /** Where an object lives on disk. */
  pathOf(oid: string): string {
    requireOid(oid);
    return join(this.root, oid.slice(0, 2), oid.slice(2, 4), oid);
  }

  /** The stored size of an object, or undefined when it is not stored. */
  async sizeOf(oid: string): Promise<number | undefined> {
    if (!isValidLfsOid(oid)) return undefined;
    try {
      return (await stat(this.pathOf(oid))).size;
    } catch {
      return undefined;
    }
  }

  /**
   * Streams an upload into the store, checking while it streams that it is exactly
   * `expectedSize` bytes hashing to `oid`; throws LfsVerifyError otherwise and keeps nothing.
   * The body is checked even when the object is already stored (then it is hashed and
   * discarded): knowing an oid proves nothing, only its content does.
   */
  async put(
    oid: string,
    expectedSize: number,
    body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  ): Promise<LfsPutResult> {
    requireOid(oid);
    if (!isValidLfsSize(expectedSize)) throw new GitInvalidArgumentError(`invalid LFS size: ${expectedSize}`);
    const source = (
      body instanceof ReadableStream ? Readable.fromWeb(body as never) : body
    ) as AsyncIterable<Uint8Array>;
    if ((await this.sizeOf(oid)) !== undefined) {
      await verifyStream(oid, expectedSize, source);
      return { oid, size: expectedSize, created: false };
    }
    const tempDir = join(this.root, "tmp");
    await mkdir(tempDir, { recursive: true });
    const temp = join(tempDir, randomUUID());
    const file = await open(temp, "wx");
    try {
      await verifyStream(oid, expectedSize, source, (chunk) => file.write(chunk));
      await file.sync();
      await file.close();
      const target = this.pathOf(oid);
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
      return { oid, size: expectedSize, created: true };
    } catch (error) {
      await file.close().catch(() => {});
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Opens a stored object for reading; throws not-found when it is not stored. */
  async get(oid: string): Promise<{ readonly size: number; readonly stream: ReadableStream<Uint8Array> }> {
    const size = await this.sizeOf(oid);
    if (size === undefined) throw new GitNotFoundError(`LFS object ${oid} does not exist`);
    const stream = Readable.toWeb(
      createReadStream(this.pathOf(oid)),
    ) as unknown as ReadableStream<Uint8Array>;
    return { size, stream };
  }

  /** Whether an object is stored with exactly this size (the LFS verify action). */
  async verify(oid: string, size: number): Promise<boolean> {
    return (await this.sizeOf(oid)) === size;
  }

  /** Partial uploads in `<root>/tmp` (one killed mid-way stays there; a live one is being written). */
  leftovers(): Promise<Leftover[]> {
    return leftoversIn(join(this.root, "tmp"), null, "LFS upload");
  }

  /** Every stored object with its size, in no particular order (`kiln doctor quota` measures the store). */
  async *objects(): AsyncIterable<{ readonly oid: string; readonly size: number }> {
    for (const a of await names(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await names(join(this.root, a))) {
        for (const oid of await names(join(this.root, a, b))) {
          if (!isValidLfsOid(oid)) continue;
          const size = await this.sizeOf(oid);
          if (size !== undefined) yield { oid, size };
        }
      }
    }
  }

  /** Removes a stored object (when no repository references it any more); resolves whether it existed. */
  async delete(oid: string): Promise<boolean> {
    const existed = (await this.sizeOf(oid)) !== undefined;
    if (existed) await rm(this.pathOf(oid), { force: true });
    return existed;
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/**
 * Reads `source` to its end (or until it is too long), handing each chunk to `sink`, and throws
 * LfsVerifyError unless it was exactly `size` bytes hashing to `oid`. The messages are Forgejo's
 * and name nothing but what the client sent.
 */
async function verifyStream(
  oid: string,
  size: number,
  source: AsyncIterable<Uint8Array>,
  sink?: (chunk: Uint8Array) => Promise<unknown>,
): Promise<void> {
  const hash = createHash("sha256");
  let read = 0;
  for await (const chunk of source) {
    read += chunk.length;
    if (read > size) throw new LfsVerifyError("content size does not match");
    hash.update(chunk);
    if (sink) await sink(chunk);
  }
  if (read !== size) throw new LfsVerifyError("content size does not match");
  if (hash.digest("hex") !== oid) throw new LfsVerifyError("content hash does not match OID");
}
