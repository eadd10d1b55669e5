import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  type PutOptions,
  type ReferencedKeys,
  type ReleaseOptions,
  type StoredBlob,
  type UnfinishedUpload,
} from "./blob-store.js";

const KEY = /^[0-9a-f]{64}$/;
/** Where unfinished uploads are written before they are renamed into place. */
const TEMP_DIR = ".tmp";
/** Bytes a blob being read is read ahead of its consumer. */
const READ_AHEAD = 256 * 1024;
/** Keys asked about at once when sweeping. */
const SWEEP_BATCH = 500;

/**
 * The local file system backend: `<root>/<k0k1>/<k2k3>/<key>`, the key being the sha256 of the
 * bytes. An upload is written to `<root>/.tmp/<uuid>` while it is hashed and counted, flushed to
 * disk, then renamed onto its key, so a crash leaves at most an unfinished file in `.tmp` (which
 * the sweep removes), never a half blob under a key.
 */
export class FsBlobStore implements BlobStore {
  /** Keys stored by a `put` whose caller has not released them yet, with how many such puts. */
  readonly #held = new Map<string, number>();
  /** The tail of each key's queue of file operations (renaming in, removing). */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  /**
   * Runs `operation` after every earlier one on the same key, so that a blob renamed into place
   * by one upload is never removed by the release of another upload of the same bytes (this
   * process only: several processes sharing one directory rely on the sweep's grace time).
   */
  async #exclusive<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(key) ?? Promise.resolve();
    const run = before.then(operation, operation);
    const tail = run.catch(() => {});
    this.#queues.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#queues.get(key) === tail) this.#queues.delete(key);
    }
  }

  #hold(key: string, by: number): void {
    const count = (this.#held.get(key) ?? 0) + by;
    if (count > 0) this.#held.set(key, count);
    else this.#held.delete(key);
  }

  /** Where a blob lives on disk. */
  path(key: string): string {
    if (!KEY.test(key)) throw new BlobNotFoundError(key);
    return join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(body: AsyncIterable<Uint8Array>, options: PutOptions): Promise<StoredBlob> {
    const tempDir = join(this.root, TEMP_DIR);
    await mkdir(tempDir, { recursive: true });
    const temp = join(tempDir, randomUUID());
    const hash = createHash("sha256");
    let size = 0;
    const file = await open(temp, "wx");
    try {
      for await (const chunk of body) {
        options.signal?.throwIfAborted();
        size += chunk.byteLength;
        if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
        hash.update(chunk);
        await file.write(chunk);
      }
      options.signal?.throwIfAborted();
      await file.sync();
    } catch (error) {
      await file.close().catch(() => {});
      await rm(temp, { force: true });
      throw error;
    }
    await file.close();
    const key = hash.digest("hex");
    const target = this.path(key);
    await this.#exclusive(key, async () => {
      try {
        await mkdir(join(target, ".."), { recursive: true });
        // The same bytes may be stored already: renaming over them changes nothing but the time,
        // which tells the sweep that the blob was just wanted again.
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      this.#hold(key, 1);
      const now = new Date();
      await utimes(target, now, now).catch(() => {});
    });
    return { key, size };
  }

  async release(key: string, options: ReleaseOptions): Promise<void> {
    await this.#exclusive(key, async () => {
      this.#hold(key, -1);
      if (options.keep || this.#held.has(key)) return;
      if ((await options.referenced([key])).has(key)) return;
      await rm(this.path(key), { force: true });
    });
  }

  async open(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>> {
    const path = this.path(key);
    try {
      await stat(path);
    } catch {
      throw new BlobNotFoundError(key);
    }
    const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
    // Read ahead by bytes, not by chunks: Node 20's toWeb counts a chunk as one unit against the
    // file stream's highWaterMark (16,384), so without a byte strategy it reads a large file far
    // ahead of a slower client, into memory.
    return Readable.toWeb(stream, {
      strategy: new ByteLengthQueuingStrategy({ highWaterMark: READ_AHEAD }),
    }) as ReadableStream<Uint8Array>;
  }

  async size(key: string): Promise<number | undefined> {
    if (!KEY.test(key)) return undefined;
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return undefined;
    }
  }

  async unfinished(): Promise<UnfinishedUpload[]> {
    const found: UnfinishedUpload[] = [];
    for (const name of await entries(join(this.root, TEMP_DIR))) {
      const path = join(this.root, TEMP_DIR, name);
      const info = await stat(path).catch(() => undefined);
      if (info) found.push({ path, bytes: info.size, modified: info.mtime });
    }
    return found;
  }

  async sweep(referenced: ReferencedKeys, graceMs: number): Promise<number> {
    const cutoff = Date.now() - graceMs;
    let removed = 0;
    const old = async (path: string) => {
      try {
        return (await stat(path)).mtimeMs <= cutoff;
      } catch {
        return false;
      }
    };
    for (const name of await entries(join(this.root, TEMP_DIR))) {
      const path = join(this.root, TEMP_DIR, name);
      if (await old(path)) {
        await rm(path, { force: true });
        removed++;
      }
    }
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const wanted = await referenced(batch);
      for (const key of batch) {
        if (wanted.has(key) || this.#held.has(key)) continue;
        const path = this.path(key);
        const gone = await this.#exclusive(key, async () => {
          if (this.#held.has(key) || !(await old(path))) return false;
          await rm(path, { force: true });
          return true;
        });
        if (gone) removed++;
      }
      batch = [];
    };
    for (const a of await entries(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await entries(join(this.root, a))) {
        for (const key of await entries(join(this.root, a, b))) {
          if (!KEY.test(key)) continue;
          batch.push(key);
          if (batch.length >= SWEEP_BATCH) await flush();
        }
      }
    }
    await flush();
    return removed;
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
