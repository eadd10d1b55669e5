import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { User } from "@kiln/domain";
import { lfsObjects, quotaUsage, repositories, wikis } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

/** Sets the modification time of `path` and everything under it `ms` into the past. */
async function age(path: string, ms: number): Promise<void> {
  const then = new Date(Date.now() - ms);
  if ((await stat(path)).isDirectory())
    for (const name of await readdir(path)) await age(join(path, name), ms);
  await utimes(path, then, then);
}

/** Writes `bytes` random bytes as a loose object into the object directory `objects` of `gitdir`. */
function writeObject(gitdir: string, objects: string, bytes: number): void {
  execFileSync("git", ["hash-object", "-w", "--stdin"], {
    input: randomBytes(bytes),
    env: { ...process.env, GIT_DIR: gitdir, GIT_OBJECT_DIRECTORY: objects },
  });
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

const HOUR = 3_600_000;

describe.each(DIALECTS)("the cleanup_disk_leftovers cron task on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  it("removes stale leftovers, keeps young ones, and corrects repository sizes with the owner's usage", async () => {
    const name = uniqueName("u");
    const owner: User = await s.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    const repo = await s.repositories.create(owner, owner, { name: uniqueName("r"), autoInit: true });
    const gitdir = s.repositories.store.pathOf(owner.name, repo.name);

    // A push killed before git moved its objects in: a quarantine holding them, two hours old.
    const quarantine = join(gitdir, "objects", "tmp_objdir-incoming-k1ll3d");
    await mkdir(quarantine, { recursive: true });
    writeObject(gitdir, quarantine, 30_000);
    await age(quarantine, 2 * HOUR);
    // A push that landed while its request failed: objects in the repository, never measured.
    writeObject(gitdir, join(gitdir, "objects"), 20_000);
    // The same in its wiki.
    await s.wikis.create(repo, owner, "Home", { content: Buffer.from("# Home") });
    const wikidir = s.repositories.store.pathOf(owner.name, `${repo.name}.wiki`);
    writeObject(wikidir, join(wikidir, "objects"), 10_000);
    const wikiMeasured = await s.repositories.store.size(owner.name, `${repo.name}.wiki`);
    // A partial LFS upload of a killed process, and one still being written.
    const lfsTmp = join(s.repositories.lfs.root, "tmp");
    await mkdir(lfsTmp, { recursive: true });
    await writeFile(join(lfsTmp, "cut-short"), randomBytes(5000));
    await age(join(lfsTmp, "cut-short"), 2 * HOUR);
    await writeFile(join(lfsTmp, "in-flight"), randomBytes(100));
    // An attachment upload cut by a shutdown.
    const attachmentTmp = join(s.ctx.settings.attachment.path, ".tmp");
    await mkdir(attachmentTmp, { recursive: true });
    await writeFile(join(attachmentTmp, "cut-short"), "half an upload");
    await age(join(attachmentTmp, "cut-short"), 2 * HOUR);
    // An LFS reference recorded without its size.
    const oid = "ab".repeat(32);
    await lfsObjects.addLfsObject(s.ctx.db, repo.id, oid, 777);

    const before = await repositories.findRepositoryById(s.ctx.db, repo.id);
    const measured = await s.repositories.store.size(owner.name, repo.name);
    expect(measured).toBeGreaterThan((before?.gitSize ?? 0) + 10_000);

    const result = await s.cron.run("cleanup_disk_leftovers");
    expect(result?.status).toBe("finished");
    const removed = result?.message.match(
      /^removed 3 leftovers \((\d+) bytes\), corrected 3 sizes of 1 repository$/,
    );
    // The quarantine's object (30 kB of random bytes barely compress), the LFS and attachment uploads.
    expect(Number(removed?.[1])).toBeGreaterThan(30_000 + 5000);
    expect(await exists(quarantine)).toBe(false);
    expect(await exists(join(lfsTmp, "cut-short"))).toBe(false);
    expect(await exists(join(attachmentTmp, "cut-short"))).toBe(false);
    expect(await exists(join(lfsTmp, "in-flight"))).toBe(true);

    const after = await repositories.findRepositoryById(s.ctx.db, repo.id);
    expect(after).toMatchObject({ gitSize: measured, lfsSize: 777 });
    expect(await wikis.wikiSize(s.ctx.db, repo.id)).toBe(wikiMeasured);
    expect(await quotaUsage.getUsage(s.ctx.db, owner.id)).toMatchObject({
      reposPublic: measured,
      lfs: 777,
      wiki: wikiMeasured,
    });
    // The ledger agrees with the corrected sizes, and a second run finds nothing to do.
    expect((await s.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
    expect(await s.cron.run("cleanup_disk_leftovers")).toMatchObject({
      message: "removed 0 leftovers (0 bytes), corrected 0 sizes of 1 repository",
    });
    expect(s.cron.list().find((t) => t.name === "cleanup_disk_leftovers")?.schedule).toBe("@every 24h");
  });
});
