import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BlobNotFoundError, BlobTooLargeError, withStoredBlob } from "./blob-store.js";
import { FsBlobStore } from "./fs-blob-store.js";

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}
const read = async (stream: ReadableStream<Uint8Array>) =>
  Buffer.from(await new Response(stream).arrayBuffer()).toString();
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
/** Every file under a directory, relative to it. */
async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe("FsBlobStore", () => {
  let root: string;
  let store: FsBlobStore;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "kiln-blobs-"));
    store = new FsBlobStore(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("stores streamed bytes under their sha256 and reads them back whole or in ranges", async () => {
    const blob = await store.put(chunks("hello ", "world"), { maxBytes: 100 });
    expect(blob).toEqual({ key: sha("hello world"), size: 11 });
    expect(await files(root)).toEqual([`${blob.key.slice(0, 2)}/${blob.key.slice(2, 4)}/${blob.key}`]);
    expect(await read(await store.open(blob.key))).toBe("hello world");
    expect(await read(await store.open(blob.key, { start: 6, end: 10 }))).toBe("world");
    expect(await store.size(blob.key)).toBe(11);
  });

  it("keeps the same bytes once, whoever uploads them", async () => {
    const a = await store.put(chunks("same"), { maxBytes: 10 });
    const b = await store.put(chunks("sa", "me"), { maxBytes: 10 });
    expect(b).toEqual(a);
    expect(await files(root)).toHaveLength(1);
  });

  it("removes the blob of an upload refused after storing, and keeps a recorded one", async () => {
    const nothing = async () => new Set<string>();
    const kept = await withStoredBlob(
      store,
      chunks("kept"),
      { maxBytes: 10, referenced: nothing },
      async (b) => b,
    );
    await expect(
      withStoredBlob(store, chunks("refused"), { maxBytes: 10, referenced: nothing }, async () => {
        throw new Error("bad checksum");
      }),
    ).rejects.toThrow("bad checksum");
    expect(await files(root)).toEqual([`${kept.key.slice(0, 2)}/${kept.key.slice(2, 4)}/${kept.key}`]);
  });

  it("keeps refused bytes that a record or another upload still holds", async () => {
    const recorded = new Set<string>();
    const referenced = async (keys: readonly string[]) => new Set(keys.filter((k) => recorded.has(k)));
    // A row refers to these bytes already: a refused upload of the same bytes leaves them.
    const first = await withStoredBlob(store, chunks("shared"), { maxBytes: 10, referenced }, async (b) => {
      recorded.add(b.key);
      return b;
    });
    await expect(
      withStoredBlob(store, chunks("shared"), { maxBytes: 10, referenced }, async () => {
        throw new Error("taken");
      }),
    ).rejects.toThrow("taken");
    expect(await store.size(first.key)).toBe(6);

    // Two uploads of the same new bytes at once: the refused one ends first, while the other,
    // which will record them, has not yet; the bytes stay for it.
    let recordSecond!: () => void;
    const secondMayRecord = new Promise<void>((r) => {
      recordSecond = r;
    });
    let secondStored!: () => void;
    const secondHasStored = new Promise<void>((r) => {
      secondStored = r;
    });
    const second = withStoredBlob(store, chunks("twice"), { maxBytes: 10, referenced }, async (b) => {
      secondStored();
      await secondMayRecord;
      recorded.add(b.key);
      return b;
    });
    await secondHasStored;
    await expect(
      withStoredBlob(store, chunks("twice"), { maxBytes: 10, referenced }, async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await store.size(sha("twice"))).toBe(5);
    recordSecond();
    expect(await read(await store.open((await second).key))).toBe("twice");
  });

  it("keeps nothing of an upload past its limit or aborted", async () => {
    await expect(store.put(chunks("12345", "6"), { maxBytes: 5 })).rejects.toBeInstanceOf(BlobTooLargeError);
    const controller = new AbortController();
    async function* slow() {
      yield Buffer.from("part");
      controller.abort();
      yield Buffer.from("rest");
    }
    await expect(store.put(slow(), { maxBytes: 100, signal: controller.signal })).rejects.toThrow();
    async function* broken(): AsyncIterable<Uint8Array> {
      yield Buffer.from("part");
      throw new Error("connection reset");
    }
    await expect(store.put(broken(), { maxBytes: 100 })).rejects.toThrow("connection reset");
    expect(await files(root)).toEqual([]);
    expect(await store.put(chunks("12345"), { maxBytes: 5 })).toMatchObject({ size: 5 });
  });

  it("answers a missing or malformed key as not found", async () => {
    await expect(store.open("0".repeat(64))).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open("../../etc/passwd")).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.size("../x")).toBeUndefined();
  });

  it("sweeps blobs nobody refers to and unfinished uploads, once older than the grace period", async () => {
    const kept = await store.put(chunks("kept"), { maxBytes: 10 });
    const dropped = await store.put(chunks("dropped"), { maxBytes: 10 });
    const referenced = async (keys: readonly string[]) => new Set(keys.filter((key) => key === kept.key));
    // Both were recorded; the record of `dropped` went later.
    await store.release(kept.key, { keep: true, referenced });
    await store.release(dropped.key, { keep: true, referenced });
    // Still being recorded: held by its upload, however old.
    const held = await store.put(chunks("held"), { maxBytes: 10 });
    await writeFile(join(root, ".tmp", "crashed-upload"), "half");
    expect(await store.unfinished()).toEqual([
      expect.objectContaining({ path: join(root, ".tmp", "crashed-upload"), bytes: 4 }),
    ]);
    // Young files stay: an upload may be about to be recorded.
    expect(await store.sweep(referenced, 60_000)).toBe(0);
    const past = new Date(Date.now() - 120_000);
    for (const path of await files(root)) await utimes(join(root, path), past, past);
    expect(await store.sweep(referenced, 60_000)).toBe(2);
    expect(await store.size(kept.key)).toBe(4);
    expect(await store.size(dropped.key)).toBeUndefined();
    expect(await store.size(held.key)).toBe(4);
    expect(await store.unfinished()).toEqual([]);
    await store.release(held.key, { keep: false, referenced });
    expect(await files(root)).toEqual([`${kept.key.slice(0, 2)}/${kept.key.slice(2, 4)}/${kept.key}`]);
  });
});
