import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, readdir, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSettings, type Repository, type User } from "@kiln/domain";
import { createServices, type Services, silentLogger } from "@kiln/service";
import { lfsObjects, quotaUsage, repositories } from "@kiln/storage";
import { openTestDatabase, type TestDatabase } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_DRIFT } from "./exit-codes.js";
import { runInstanceCommand } from "./instance-commands.js";
import type { ProgressUpdate } from "./progress.js";

const HOUR = 3_600_000;

/** Sets the modification time of `path` and everything under it `ms` into the past. */
async function age(path: string, ms: number): Promise<void> {
  const then = new Date(Date.now() - ms);
  if ((await stat(path)).isDirectory())
    for (const name of await readdir(path)) await age(join(path, name), ms);
  await utimes(path, then, then);
}

/** Writes random bytes as a loose object into the object directory `objects` of `gitdir`. */
function writeObject(gitdir: string, objects: string, bytes: number): void {
  execFileSync("git", ["hash-object", "-w", "--stdin"], {
    input: randomBytes(bytes),
    env: { ...process.env, GIT_DIR: gitdir, GIT_OBJECT_DIRECTORY: objects },
  });
}

async function* body(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("kiln doctor quota: what is on disk", () => {
  let database: TestDatabase;
  let services: Services;
  const work = mkdtempSync(join(tmpdir(), "kiln-doctor-disk-"));
  let owner: User;
  let repo: Repository;
  const paths: Record<string, string> = {};
  let measured = 0;
  let lfsObject: { oid: string; size: number };

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    services = createServices({
      db: database.db,
      settings: defaultSettings(work, { security: { secretKey: "k" } }),
      logger: silentLogger,
    });
    owner = await services.users.create({
      username: "dora",
      email: "dora@example.com",
      password: "password1",
    });
    repo = await services.repositories.create(owner, owner, { name: "disk", autoInit: true });
    const gitdir = services.repositories.store.pathOf(owner.name, repo.name);

    // A push killed before git moved its objects in: its quarantine, with the objects, two hours old.
    paths.quarantine = join(gitdir, "objects", "tmp_objdir-incoming-k1ll3d");
    mkdirSync(paths.quarantine);
    writeObject(gitdir, paths.quarantine, 60_000);
    await age(paths.quarantine, 2 * HOUR);
    // A push that landed while git reported an error: its objects are in, never measured.
    writeObject(gitdir, join(gitdir, "objects"), 20_000);
    measured = await services.repositories.store.size(owner.name, repo.name);
    // A partial LFS upload left by a killed process, and one being written right now.
    const lfsTmp = join(services.repositories.lfs.root, "tmp");
    await mkdir(lfsTmp, { recursive: true });
    paths.lfsStale = join(lfsTmp, "cut-short");
    await writeFile(paths.lfsStale, randomBytes(30_000));
    await age(paths.lfsStale, 2 * HOUR);
    paths.lfsFresh = join(lfsTmp, "in-flight");
    await writeFile(paths.lfsFresh, randomBytes(100));
    // An attachment upload cut by a shutdown.
    const attachmentTmp = join(services.ctx.settings.attachment.path, ".tmp");
    await mkdir(attachmentTmp, { recursive: true });
    paths.upload = join(attachmentTmp, "cut-short");
    await writeFile(paths.upload, "half an upload");
    await age(paths.upload, 2 * HOUR);
    // An LFS object the repository references whose size never reached lfs_size.
    const bytes = randomBytes(777);
    lfsObject = { oid: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
    await services.repositories.lfs.put(lfsObject.oid, lfsObject.size, body(bytes));
    await lfsObjects.addLfsObject(services.ctx.db, repo.id, lfsObject.oid, lfsObject.size);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function run(args: object) {
    const out: string[] = [];
    const progress: ProgressUpdate[] = [];
    const code = await runInstanceCommand(
      {
        services,
        settings: services.ctx.settings,
        migrated: [],
        io: {
          out: (t) => out.push(t),
          err: (t) => out.push(`stderr: ${t}`),
          progress: (p) => progress.push(p),
        },
      },
      "doctor.quota",
      args,
    );
    return { code, out, progress };
  }
  const line = (out: string[], start: string) => out.find((l) => l.startsWith(start));

  it("reports each leftover and each size that differs from the disk (exit 3), touching nothing", async () => {
    const { code, out, progress } = await run({});
    expect(code).toBe(EXIT_DRIFT);
    expect(progress[0]).toMatchObject({ label: "Measuring repositories on disk", done: 0, total: 1 });
    expect(progress).toContainEqual(
      expect.objectContaining({ label: "Measuring repositories on disk", done: 1 }),
    );
    const fixHint = ". Run 'kiln doctor quota --fix' to remove it.";
    expect(line(out, `leftover: push quarantine ${paths.quarantine} (`)).toMatch(
      / bytes, last written .*Z\)\. Run/,
    );
    expect(line(out, `leftover: LFS upload ${paths.lfsStale} (30000 bytes, `)?.endsWith(fixHint)).toBe(true);
    expect(line(out, `leftover: attachments upload ${paths.upload} (14 bytes, `)).toBeDefined();
    expect(line(out, `in use: LFS upload ${paths.lfsFresh} (100 bytes, `)).toMatch(
      /younger than an hour, left alone\.$/,
    );
    const stored = (await repositories.findRepositoryById(services.ctx.db, repo.id))!;
    expect(out).toContain(
      `drift: repository dora/disk (id ${repo.id}), git size: stored ${stored.gitSize} bytes, on disk ${measured} bytes (+${measured - stored.gitSize})`,
    );
    expect(out).toContain(
      `drift: repository dora/disk (id ${repo.id}), lfs size: stored 0 bytes, its LFS objects 777 bytes (+777)`,
    );
    expect(out).toContain(
      "Checked 1 repository on disk: 2 sizes differ from the disk. Run 'kiln doctor quota --fix' to repair.",
    );
    expect(out).toContain(
      "Checked the LFS store: 1 object (777 bytes) on disk; the repositories reference 1 object (777 bytes).",
    );
    for (const path of Object.values(paths)) expect(await exists(path)).toBe(true);
  });

  it("with --fix removes the stale leftovers, corrects the sizes and the usage, and leaves the fresh upload", async () => {
    const fixed = await run({ fix: true });
    expect(fixed.code).toBe(0);
    expect(line(fixed.out, `removed: push quarantine ${paths.quarantine} (`)).toBeDefined();
    expect(line(fixed.out, `removed: LFS upload ${paths.lfsStale} (`)).toBeDefined();
    expect(line(fixed.out, `removed: attachments upload ${paths.upload} (`)).toBeDefined();
    expect(line(fixed.out, `repaired: repository dora/disk (id ${repo.id}), git size: `)).toContain(
      `on disk ${measured} bytes`,
    );
    expect(fixed.out).toContain("Checked 1 repository on disk: repaired 2 sizes.");
    for (const path of [paths.quarantine, paths.lfsStale, paths.upload])
      expect(await exists(path!)).toBe(false);
    expect(await exists(paths.lfsFresh!)).toBe(true);
    expect(await repositories.findRepositoryById(services.ctx.db, repo.id)).toMatchObject({
      gitSize: measured,
      lfsSize: 777,
    });
    expect(await quotaUsage.getUsage(services.ctx.db, owner.id)).toMatchObject({
      reposPublic: measured,
      lfs: 777,
    });

    const again = await run({});
    expect(again.code).toBe(0);
    expect(again.out).toContain("Checked 1 repository on disk: their stored sizes match the disk.");
    expect(again.out).toContain("Checked 1 owner: the quota ledger matches the stored data.");
    expect(line(again.out, `in use: LFS upload ${paths.lfsFresh} `)).toBeDefined();
    expect(again.out.filter((l) => /^(leftover|drift|removed|repaired):/.test(l))).toEqual([]);
  });

  it("names the LFS objects no repository references, which count against nobody", async () => {
    const bytes = randomBytes(50);
    const oid = createHash("sha256").update(bytes).digest("hex");
    await services.repositories.lfs.put(oid, bytes.length, body(bytes));
    const { out } = await run({});
    expect(out).toContain(
      "unreferenced: 1 LFS object (50 bytes) no repository references; they count against nobody and are kept.",
    );
    expect(out).toContain(
      "Checked the LFS store: 2 objects (827 bytes) on disk; the repositories reference 1 object (777 bytes).",
    );
  });
});
