import { existsSync, readdirSync } from "node:fs";
import { crc32 } from "node:zlib";
import { FsBlobStore } from "@kiln/blobs";
import type { Repository, User } from "@kiln/domain";
import { artifacts as artifactQueries, quotaRecount, quotaUsage, repositories } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

/** A zip archive storing one file (method 0), as real as `unzip` needs. */
function zipOf(name: string, content: Buffer): Buffer {
  const file = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + content.length, 16);
  return Buffer.concat([local, file, content, central, file, end]);
}

async function* chunks(data: Buffer, size = 7): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

const DAY = 86_400_000;

describe.each(DIALECTS)("Actions artifacts on %s", (dialect) => {
  let s: Services;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openTestServices(dialect, {
      actions: { artifactMaxSize: 4096, artifactRetentionDays: 30 },
    });
    s = opened.services;
    close = () => opened.database.close();
  });
  afterAll(() => close?.());

  const user = async (): Promise<User> => {
    const name = uniqueName("u");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1" });
  };
  const repoOf = async (owner: User): Promise<Repository> => {
    const name = uniqueName("r");
    return repositories.insertRepository(s.ctx.db, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
    });
  };
  const artifactsUsage = async (owner: User) => (await quotaUsage.getUsage(s.ctx.db, owner.id)).artifacts;
  const zip = zipOf("report.txt", Buffer.from("all tests passed\n".repeat(20)));

  it("stores an uploaded zip byte for byte, counted against the repository's owner", async () => {
    const owner = await user();
    const uploader = await user();
    const repo = await repoOf(owner);
    const before = Date.now();
    const a = await s.artifacts.upload(
      repo,
      uploader,
      { runId: 7, name: "report", headSha: "a".repeat(40) },
      chunks(zip),
    );
    expect(a).toMatchObject({
      repoId: repo.id,
      runId: 7,
      name: "report",
      size: zip.length,
      headSha: "a".repeat(40),
    });
    // Kept [actions] ARTIFACT_RETENTION_DAYS (30) by default.
    expect(a.expiresAt.getTime() - a.createdAt.getTime()).toBe(30 * DAY);
    expect(a.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await artifactsUsage(owner)).toBe(zip.length);
    expect(await artifactsUsage(uploader)).toBe(0);
    const opened = await s.artifacts.open(repo, a.id);
    expect((await readAll(opened.body)).equals(zip)).toBe(true);
    expect((await s.artifacts.list(repo, {}, { page: 1, limit: 30 })).items.map((x) => x.id)).toEqual([a.id]);
    expect(await s.quota.listUsedArtifacts(owner.id, { page: 1, limit: 30 })).toEqual({
      total: 1,
      items: [{ name: "report", size: zip.length, htmlPath: `${owner.name}/${repo.name}/actions/runs/7` }],
    });
  });

  it("refuses what is not a zip, a bad name, a taken name and a file over the limit, storing nothing", async () => {
    const owner = await user();
    const repo = await repoOf(owner);
    await s.artifacts.upload(repo, owner, { runId: 1, name: "dist" }, chunks(zip));
    const refusals: [object, Buffer, string, string][] = [
      [
        { runId: 1, name: "text" },
        Buffer.from("plain text, no zip"),
        "invalid_argument",
        "an artifact must be a zip archive",
      ],
      [
        { runId: 1, name: "tiny" },
        Buffer.from("PK"),
        "invalid_argument",
        "an artifact must be a zip archive",
      ],
      [{ runId: 1, name: "a/b" }, zip, "invalid_argument", 'invalid artifact name: "a/b"'],
      [{ runId: 1, name: "" }, zip, "invalid_argument", 'invalid artifact name: ""'],
      [{ runId: 1, name: "x".repeat(256) }, zip, "invalid_argument", "invalid artifact name"],
      [{ runId: 1, name: "dist" }, zip, "already_exists", "artifact already exists [name: dist]"],
      [{ runId: 1, name: "big" }, zipOf("big", Buffer.alloc(5000)), "payload_too_large", "ARTIFACT_MAX_SIZE"],
    ];
    for (const [input, body, kind, message] of refusals) {
      await expect(
        s.artifacts.upload(repo, owner, input as { runId: number; name: string }, chunks(body)),
      ).rejects.toMatchObject({ kind, message: expect.stringContaining(message) });
    }
    expect((await s.artifacts.list(repo, {}, { page: 1, limit: 30 })).total).toBe(1);
    expect(await artifactsUsage(owner)).toBe(zip.length);
    // The same name in another run is another artifact.
    await s.artifacts.upload(repo, owner, { runId: 2, name: "dist" }, chunks(zip));
    expect(await artifactsUsage(owner)).toBe(2 * zip.length);
  });

  it("keeps one file when uploads of one name race: the refused ones' bytes go again", async () => {
    const owner = await user();
    const repo = await repoOf(owner);
    const root = s.artifacts.blobs instanceof FsBlobStore ? s.artifacts.blobs.root : "";
    const files = () =>
      existsSync(root)
        ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
        : [];
    const before = files().length;
    // Different bytes each, so each stored its own blob before the name was found taken.
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        s.artifacts.upload(
          repo,
          owner,
          { runId: 9, name: "race" },
          chunks(zipOf(`r${i}.txt`, Buffer.from(`run ${i}\n`.repeat(30)))),
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ kind: "already_exists" });
    expect(files()).toHaveLength(before + 1);
  });

  it("deletes an artifact with its usage; an unknown or foreign id is 404", async () => {
    const owner = await user();
    const repo = await repoOf(owner);
    const other = await repoOf(owner);
    const a = await s.artifacts.upload(repo, owner, { runId: 1, name: "x" }, chunks(zip));
    await expect(s.artifacts.delete(other, a.id)).rejects.toMatchObject({ kind: "not_found" });
    await expect(s.artifacts.get(other, a.id)).rejects.toMatchObject({ kind: "not_found" });
    await s.artifacts.delete(repo, a.id);
    await expect(s.artifacts.get(repo, a.id)).rejects.toMatchObject({ kind: "not_found" });
    await expect(s.artifacts.delete(repo, a.id)).rejects.toMatchObject({ kind: "not_found" });
    expect(await artifactsUsage(owner)).toBe(0);
  });

  it("keeps at most ARTIFACT_RETENTION_DAYS; past expiry an artifact is gone, and the task releases it", async () => {
    const owner = await user();
    const repo = await repoOf(owner);
    const short = await s.artifacts.upload(
      repo,
      owner,
      { runId: 1, name: "short", retentionDays: 1 },
      chunks(zip),
    );
    const long = await s.artifacts.upload(
      repo,
      owner,
      { runId: 1, name: "long", retentionDays: 400 },
      chunks(zip),
    );
    expect(short.expiresAt.getTime() - short.createdAt.getTime()).toBe(DAY);
    expect(long.expiresAt.getTime() - long.createdAt.getTime()).toBe(30 * DAY);
    // Expire `short` now (as if a day had passed).
    await s.ctx.db
      .updateTable("actionArtifact")
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where("id", "=", short.id)
      .execute();
    await expect(s.artifacts.get(repo, short.id)).rejects.toMatchObject({ kind: "not_found" });
    await expect(s.artifacts.open(repo, short.id)).rejects.toMatchObject({ kind: "not_found" });
    expect((await s.artifacts.list(repo, {}, { page: 1, limit: 30 })).items.map((a) => a.name)).toEqual([
      "long",
    ]);
    expect((await s.quota.listUsedArtifacts(owner.id, { page: 1, limit: 30 })).total).toBe(1);
    // Its bytes count until the task removes it (as in Forgejo), which `kiln admin cron run` does at once.
    expect(await artifactsUsage(owner)).toBe(2 * zip.length);
    const result = await s.cron.run("cleanup_actions");
    expect(result).toMatchObject({
      status: "finished",
      message: expect.stringMatching(/^removed [1-9]\d* expired artifact/),
    });
    expect(await artifactsUsage(owner)).toBe(zip.length);
    expect(await artifactQueries.findArtifact(s.ctx.db, repo.id, short.id, new Date(0))).toBeUndefined();
    // A new upload may take an expired artifact's name before the task ran.
    await s.ctx.db
      .updateTable("actionArtifact")
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where("id", "=", long.id)
      .execute();
    const again = await s.artifacts.upload(repo, owner, { runId: 1, name: "long" }, chunks(zip));
    expect(again.id).not.toBe(long.id);
    expect(await artifactsUsage(owner)).toBe(zip.length);
  });

  it("moves its usage with a transferred repository and releases it with a deleted one", async () => {
    const from = await user();
    const to = await user();
    const repo = await repoOf(from);
    await s.artifacts.upload(repo, from, { runId: 1, name: "a" }, chunks(zip));
    await s.artifacts.upload(repo, from, { runId: 2, name: "a" }, chunks(zip));
    // The repository needs its directory for a transfer and a deletion.
    await s.repositories.store.create(from.name, repo.name);
    expect(await s.transfers.start(to, repo, to.name, undefined)).toBe("transferred");
    expect([await artifactsUsage(from), await artifactsUsage(to)]).toEqual([0, 2 * zip.length]);
    const moved = await repositories.findRepositoryById(s.ctx.db, repo.id);
    await s.repositories.delete(moved as Repository);
    expect(await artifactsUsage(to)).toBe(0);
    // The ledger agrees with a recount from the rows (what `kiln doctor quota` compares).
    const recount = await quotaRecount.recountUsage(s.ctx.db, [from.id, to.id]);
    for (const owner of [from, to])
      expect(await quotaUsage.getUsage(s.ctx.db, owner.id)).toEqual(recount.get(owner.id));
  });

  it("gives the sweep the blob keys its rows refer to", async () => {
    const owner = await user();
    const repo = await repoOf(owner);
    const a = await s.artifacts.upload(repo, owner, { runId: 1, name: "k" }, chunks(zip));
    const row = await artifactQueries.findArtifact(s.ctx.db, repo.id, a.id, new Date());
    const kind = s.artifacts.blobKind();
    expect(kind.name).toBe("artifacts");
    expect(await kind.referenced([row?.blobKey ?? "", "f".repeat(64)])).toEqual(new Set([row?.blobKey]));
  });
});
