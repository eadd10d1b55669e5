import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { archiveProcesses, openArchive, ProcessSlots, splitArchiveName } from "./archive.js";

const exec = promisify(execFile);

/** Runs git with `input` on stdin, without any machine configuration; returns trimmed stdout. */
function gitInput(args: readonly string[], input: string): string {
  const env = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const identity = { GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@example.com", GIT_COMMITTER_NAME: "A" };
  return execFileSync("git", args, {
    input,
    env: { ...env, ...identity, GIT_COMMITTER_EMAIL: "a@example.com" },
  })
    .toString("utf8")
    .trim();
}

/** Reads a whole stream (the test archives are small). */
async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

/** Waits until no archive process runs any more (they exit asynchronously after a kill). */
async function noArchiveRunning(): Promise<void> {
  for (let i = 0; i < 200 && archiveProcesses().running > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(archiveProcesses().running).toBe(0);
}

describe("splitArchiveName", () => {
  it("splits by suffix as Forgejo's ParseFileName does, slashes and dots in the ref included", () => {
    expect(splitArchiveName("main.zip")).toEqual({ ref: "main", format: "zip" });
    expect(splitArchiveName("release/v1.0.tar.gz")).toEqual({ ref: "release/v1.0", format: "tar.gz" });
    expect(splitArchiveName("a.zip.bundle")).toEqual({ ref: "a.zip", format: "bundle" });
    expect(splitArchiveName(".zip")).toEqual({ ref: "", format: "zip" });
    expect(splitArchiveName("main.tar")).toBeUndefined();
    expect(splitArchiveName("main.gz")).toBeUndefined();
    expect(splitArchiveName("main")).toBeUndefined();
  });
});

describe("ProcessSlots", () => {
  it("lets `limit` holders in, queues the rest in order, and drops a waiter whose signal aborts", async () => {
    const slots = new ProcessSlots(1);
    const first = await slots.acquire();
    const order: string[] = [];
    const second = slots.acquire().then((release) => {
      order.push("second");
      return release;
    });
    const leaving = new AbortController();
    const third = slots.acquire(leaving.signal);
    expect(slots.state).toEqual({ running: 1, waiting: 2 });
    leaving.abort(new Error("client left"));
    await expect(third).rejects.toThrow("client left");
    expect(slots.state).toEqual({ running: 1, waiting: 1 });
    first();
    first();
    (await second)();
    expect(order).toEqual(["second"]);
    expect(slots.state).toEqual({ running: 0, waiting: 0 });
  });
});

describe("archives", () => {
  let fx: FixtureRepo;
  let out: { dir: string; cleanup: () => Promise<void> };
  const save = async (name: string, stream: ReadableStream<Uint8Array>) => {
    const path = join(out.dir, name);
    await writeFile(path, await bytesOf(stream));
    return path;
  };
  const files = async (commit: string) =>
    (await fx.cli.ok(["--git-dir", fx.repo.gitdir, "ls-tree", "-r", "--name-only", commit]))
      .split("\n")
      .filter((path) => !path.startsWith("ext"))
      .map((path) => `fixture/${path}`)
      .sort();

  beforeAll(async () => {
    fx = await fixtureRepo();
    out = await scratch("kiln-archive-out-");
  });
  afterAll(async () => {
    await out?.cleanup();
    await fx?.cleanup();
  });

  it("zips a branch under the repository's name, every file with its bytes", async () => {
    const archive = await openArchive(fx.repo, "main", "zip");
    expect(archive).toMatchObject({ commitSha: fx.shas.three, format: "zip" });
    const path = await save("main.zip", await archive.open());
    const listed = (await exec("unzip", ["-Z1", path])).stdout.split("\n").filter(Boolean);
    expect(listed.filter((entry) => !entry.endsWith("/")).sort()).toEqual(
      (await files(fx.shas.three)).filter((file) => file !== "fixture/ext"),
    );
    expect(listed).toContain("fixture/src/");
    expect((await exec("unzip", ["-p", path, "fixture/src/index.ts"])).stdout).toBe(
      "export const a = 10;\nexport const b = 2;\nexport const c = 3;\n",
    );
    await noArchiveRunning();
  });

  it("makes a tar.gz of a tag with git's own bytes, old commits through `gzip -cn` as Forgejo does", async () => {
    const archive = await openArchive(fx.repo, "v1", "tar.gz");
    expect(archive.commitSha).toBe(fx.shas.one);
    const ours = await bytesOf(await archive.open());
    const expected = await exec(
      "git",
      [
        "--git-dir",
        fx.repo.gitdir,
        "-c",
        "tar.tar.gz.command=gzip -cn",
        "archive",
        "--format=tar.gz",
        "--prefix=fixture/",
        fx.shas.one,
      ],
      { encoding: "buffer", maxBuffer: 1 << 24 },
    );
    expect(ours.equals(expected.stdout)).toBe(true);
    const path = join(out.dir, "v1.tar.gz");
    await writeFile(path, ours);
    const listed = (await exec("tar", ["-tzf", path])).stdout.split("\n").filter(Boolean);
    expect(listed.filter((entry) => !entry.endsWith("/")).sort()).toEqual(await files(fx.shas.one));
    expect((await exec("tar", ["-xzOf", path, "fixture/docs/guide.md"])).stdout).toBe("guide\n");
  });

  it("archives LFS pointers as stored, whatever git-lfs filter the machine's git configuration requires", async () => {
    // The machine's /etc/gitconfig (here: GIT_CONFIG_SYSTEM) makes a failing git-lfs filter
    // required for everyone; a server git that read it would cut every archive of an LFS file.
    const system = join(out.dir, "system-gitconfig");
    await writeFile(system, '[filter "lfs"]\n\tprocess = false\n\tsmudge = false\n\trequired = true\n');
    const repo = await fx.store.create("alice", "lfs");
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${"a".repeat(64)}\nsize 1234\n`;
    const gitdir = ["--git-dir", repo.gitdir];
    const blob = (text: string) => gitInput([...gitdir, "hash-object", "-w", "--stdin"], text);
    const tree = gitInput(
      [...gitdir, "mktree"],
      `100644 blob ${blob("*.bin filter=lfs diff=lfs merge=lfs -text\n")}\t.gitattributes\n` +
        `100644 blob ${blob(pointer)}\tlarge.bin\n`,
    );
    const commit = gitInput([...gitdir, "commit-tree", tree, "-m", "lfs"], "");
    await fx.cli.ok([...gitdir, "update-ref", "refs/heads/main", commit]);
    const before = process.env.GIT_CONFIG_SYSTEM;
    process.env.GIT_CONFIG_SYSTEM = system;
    try {
      // The configuration really breaks a git that reads it.
      const broken = await fx.cli.run([...gitdir, "archive", "--format=zip", commit], undefined, {
        GIT_CONFIG_NOSYSTEM: "",
        GIT_CONFIG_SYSTEM: system,
      });
      expect(broken.code).not.toBe(0);
      for (const format of ["zip", "tar.gz"] as const) {
        const path = await save(`lfs.${format}`, await (await openArchive(repo, "main", format)).open());
        const read =
          format === "zip"
            ? await exec("unzip", ["-p", path, "lfs/large.bin"])
            : await exec("tar", ["-xzOf", path, "lfs/large.bin"]);
        expect(read.stdout, format).toBe(pointer);
      }
      const bundle = await save("lfs.bundle", await (await openArchive(repo, "main", "bundle")).open());
      expect(await fx.cli.ok(["bundle", "list-heads", bundle])).toContain(`${commit} HEAD`);
    } finally {
      if (before === undefined) delete process.env.GIT_CONFIG_SYSTEM;
      else process.env.GIT_CONFIG_SYSTEM = before;
    }
    await noArchiveRunning();
  });

  it("resolves a full sha and an annotated tag to their commit, and takes another prefix or none", async () => {
    expect((await openArchive(fx.repo, fx.shas.two, "zip")).commitSha).toBe(fx.shas.two);
    expect((await openArchive(fx.repo, "v2", "zip")).commitSha).toBe(fx.shas.three);
    const bare = await openArchive(fx.repo, "feature", "zip", { prefix: "" });
    const listed = (await exec("unzip", ["-Z1", await save("bare.zip", await bare.open())])).stdout;
    expect(listed.split("\n")).toContain("README.md");
  });

  it("bundles the commit's history as branch `bundle` and HEAD, which git clones", async () => {
    const archive = await openArchive(fx.repo, "feature", "bundle");
    const path = await save("feature.bundle", await archive.open());
    const heads = await fx.cli.ok(["bundle", "list-heads", path]);
    expect(heads.split("\n").sort()).toEqual([`${fx.shas.two} HEAD`, `${fx.shas.two} refs/heads/bundle`]);
    const clone = join(out.dir, "clone");
    await fx.cli.ok(["clone", "--quiet", path, clone]);
    expect(await fx.cli.ok(["rev-parse", "HEAD"], clone)).toBe(fx.shas.two);
    expect(await fx.cli.ok(["rev-list", "--count", "HEAD"], clone)).toBe("2");
    await noArchiveRunning();
  });

  it("refuses unknown refs and names outside the repository's refs before starting git", async () => {
    for (const ref of ["nope", "", "../../other.git/refs/heads/main", "main~1", "-h", "--output=x"]) {
      await expect(openArchive(fx.repo, ref, "zip")).rejects.toBeInstanceOf(GitNotFoundError);
    }
    expect(archiveProcesses().running).toBe(0);
  });
});

describe("archive streaming", () => {
  let fx: FixtureRepo;
  let repo: GitRepository;

  beforeAll(async () => {
    fx = await fixtureRepo();
    repo = await fx.store.create("alice", "big");
    const work = join(fx.cli.home, "big");
    await fx.cli.ok(["init", "--quiet", work]);
    // Random bytes do not compress: git cannot finish while nobody reads.
    await writeFile(join(work, "a.bin"), randomBytes(16 * 1024 * 1024));
    await writeFile(join(work, "z.txt"), "last\n");
    await fx.cli.ok(["add", "-A"], work);
    await fx.cli.ok(["commit", "--quiet", "-m", "big"], work);
    await fx.cli.ok(["push", "--quiet", repo.gitdir, "main"], work);
  });
  afterAll(() => fx?.cleanup());

  it("keeps git waiting while nobody reads (nothing buffers the archive) and kills it on cancel", async () => {
    const stream = await (await openArchive(repo, "main", "zip")).open();
    const reader = stream.getReader();
    const first = await reader.read();
    expect(first.value?.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(archiveProcesses().running).toBe(1);
    await reader.cancel();
    await noArchiveRunning();
  });

  it("kills a bundle's git on cancel too, and removes its scratch repository", async () => {
    const scratchDirs = async () =>
      (await readdir(tmpdir())).filter((name) => name.startsWith("kiln-bundle-")).length;
    const before = await scratchDirs();
    const reader = (await (await openArchive(repo, "main", "bundle")).open()).getReader();
    expect((await reader.read()).value?.length).toBeGreaterThan(0);
    expect(await scratchDirs()).toBe(before + 1);
    await reader.cancel();
    await noArchiveRunning();
    for (let i = 0; i < 40 && (await scratchDirs()) > before; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await scratchDirs()).toBe(before);
  });

  it("errors the stream when git fails half-way, after the bytes it wrote", async () => {
    const blob = await fx.cli.ok(["--git-dir", repo.gitdir, "rev-parse", "main:z.txt"]);
    await rm(join(repo.gitdir, "objects", blob.slice(0, 2), blob.slice(2)));
    const stream = await (await openArchive(repo, "main", "tar.gz")).open();
    let received = 0;
    const read = (async () => {
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) received += chunk.length;
    })();
    await expect(read).rejects.toThrow(/git archive failed/);
    expect(received).toBeGreaterThan(0);
    await noArchiveRunning();
  });
});
