import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { GitInvalidArgumentError, GitNotFoundError, LfsVerifyError } from "../errors/git-error.js";
import { isValidLfsOid, isValidLfsSize } from "./lfs-oid.js";

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
 * (which repository references which object is the database's business). Uploads are verified
 * and renamed into place atomically, so a partial upload is never visible.
 */
export class LfsStore {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
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
   * An object already stored is not written again.
   */
  async put(
    oid: string,
    expectedSize: number,
    body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  ): Promise<LfsPutResult> {
    requireOid(oid);
    if (!isValidLfsSize(expectedSize)) throw new GitInvalidArgumentError(`invalid LFS size: ${expectedSize}`);
    const existing = await this.sizeOf(oid);
    if (existing !== undefined) {
      if (existing !== expectedSize)
        throw new LfsVerifyError(`object ${oid} is stored with size ${existing}`);
      return { oid, size: existing, created: false };
    }
    const tempDir = join(this.root, "tmp");
    await mkdir(tempDir, { recursive: true });
    const temp = join(tempDir, randomUUID());
    const file = await open(temp, "wx");
    const hash = createHash("sha256");
    let size = 0;
    try {
      const source = body instanceof ReadableStream ? Readable.fromWeb(body as never) : body;
      for await (const chunk of source as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > expectedSize)
          throw new LfsVerifyError(`object ${oid} is larger than ${expectedSize} bytes`);
        hash.update(chunk);
        await file.write(chunk);
      }
      if (size !== expectedSize)
        throw new LfsVerifyError(`object ${oid} has ${size} bytes, expected ${expectedSize}`);
      const actual = hash.digest("hex");
      if (actual !== oid) throw new LfsVerifyError(`object content hashes to ${actual}, not ${oid}`);
      await file.sync();
      await file.close();
      const target = this.pathOf(oid);
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
      return { oid, size, created: true };
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

  /** Removes a stored object (when no repository references it any more); resolves whether it existed. */
  async delete(oid: string): Promise<boolean> {
    const existed = (await this.sizeOf(oid)) !== undefined;
    if (existed) await rm(this.pathOf(oid), { force: true });
    return existed;
  }
}
