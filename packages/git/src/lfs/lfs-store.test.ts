import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch } from "../../test/helpers.js";
import { GitInvalidArgumentError, GitNotFoundError, LfsVerifyError } from "../errors/git-error.js";
import { LfsStore } from "./lfs-store.js";

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

async function* chunks(data: Buffer, size = 1000): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < data.length; offset += size) yield data.subarray(offset, offset + size);
}

describe("LfsStore", () => {
  let root: Awaited<ReturnType<typeof scratch>>;
  let store: LfsStore;
  beforeAll(async () => {
    root = await scratch();
    store = new LfsStore(join(root.dir, "lfs"));
  });
  afterAll(() => root.cleanup());

  it("stores a verified upload at ab/cd/<oid> and streams it back", async () => {
    const data = Buffer.from("x".repeat(10_000));
    const oid = sha256(data);
    expect(await store.put(oid, data.length, chunks(data))).toEqual({
      oid,
      size: data.length,
      created: true,
    });
    expect(store.pathOf(oid)).toBe(join(root.dir, "lfs", oid.slice(0, 2), oid.slice(2, 4), oid));
    expect(await readFile(store.pathOf(oid))).toEqual(data);
    const { size, stream } = await store.get(oid);
    expect(size).toBe(data.length);
    expect(Buffer.from(await new Response(stream).arrayBuffer())).toEqual(data);
    expect(await store.verify(oid, data.length)).toBe(true);
    expect(await store.verify(oid, 1)).toBe(false);
    expect(await store.put(oid, data.length, chunks(data))).toMatchObject({ created: false });
  });

  it("lists its objects with their sizes, and the partial uploads a killed upload left in tmp", async () => {
    const lister = new LfsStore(join(root.dir, "lfs-listed"));
    const data = Buffer.from("listed");
    await lister.put(sha256(data), data.length, chunks(data));
    const objects = [];
    for await (const object of lister.objects()) objects.push(object);
    expect(objects).toEqual([{ oid: sha256(data), size: data.length }]);
    // A process killed while streaming an upload never reaches its clean-up.
    await writeFile(join(lister.root, "tmp", "cut-short"), Buffer.alloc(300));
    expect(await lister.leftovers()).toEqual([
      expect.objectContaining({
        kind: "LFS upload",
        path: join(lister.root, "tmp", "cut-short"),
        bytes: 300,
      }),
    ]);
  });

  it("accepts a web ReadableStream body", async () => {
    const data = Buffer.from("web stream body");
    const oid = sha256(data);
    await store.put(oid, data.length, new Response(data).body!);
    expect(await store.sizeOf(oid)).toBe(data.length);
  });

  it("rejects wrong content, short and long uploads without leaving anything visible", async () => {
    const data = Buffer.from("payload");
    const oid = sha256(data);
    await expect(store.put(oid, data.length, chunks(Buffer.from("PAYLOAD")))).rejects.toBeInstanceOf(
      LfsVerifyError,
    );
    await expect(store.put(oid, data.length + 1, chunks(data))).rejects.toBeInstanceOf(LfsVerifyError);
    await expect(store.put(oid, data.length - 1, chunks(data))).rejects.toBeInstanceOf(LfsVerifyError);
    expect(await store.sizeOf(oid)).toBeUndefined();
    expect(await readdir(join(root.dir, "lfs", "tmp"))).toEqual([]);
    await expect(store.get(oid)).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("checks the body of an object it already holds, keeping the stored bytes whatever was sent", async () => {
    const data = Buffer.from("already here");
    const oid = sha256(data);
    await store.put(oid, data.length, chunks(data));
    for (const [size, body] of [
      [data.length, Buffer.from("ALREADY HERE")],
      [data.length, Buffer.alloc(0)],
      [1, Buffer.from("a")],
      [data.length + 5, Buffer.concat([data, Buffer.from("extra")])],
    ] as const) {
      const refused = store.put(oid, size, chunks(body));
      await expect(refused).rejects.toBeInstanceOf(LfsVerifyError);
      await expect(refused).rejects.not.toThrow(String(data.length));
    }
    expect(await store.put(oid, data.length, chunks(data, 3))).toEqual({
      oid,
      size: data.length,
      created: false,
    });
    expect(await readFile(store.pathOf(oid))).toEqual(data);
    expect(await readdir(join(root.dir, "lfs", "tmp"))).toEqual([]);
  });

  it("refuses malformed oids and sizes", async () => {
    await expect(store.put("abc", 1, chunks(Buffer.from("a")))).rejects.toBeInstanceOf(
      GitInvalidArgumentError,
    );
    await expect(store.put("a".repeat(64), -1, chunks(Buffer.from("a")))).rejects.toBeInstanceOf(
      GitInvalidArgumentError,
    );
    expect(await store.sizeOf("../../etc/passwd")).toBeUndefined();
  });

  it("deletes objects", async () => {
    const data = Buffer.from("bye");
    const oid = sha256(data);
    await store.put(oid, data.length, chunks(data));
    expect(await store.delete(oid)).toBe(true);
    expect(await store.delete(oid)).toBe(false);
  });
});
