import { access, constants, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { changeFiles } from "../objects/change-files.js";
import { writeCommitGraph } from "../objects/commit-graph.js";
import { RepoStore, wikiRepoName } from "./repo-store.js";

const author = {
  name: "Ann Author",
  email: "ann@example.com",
  date: new Date("2024-03-01T10:00:00Z"),
  timezoneOffset: 60,
};

describe("RepoStore", () => {
  let root: Awaited<ReturnType<typeof scratch>>;
  let store: RepoStore;
  let cli: GitCli;

  beforeAll(async () => {
    root = await scratch();
    store = new RepoStore({ root: join(root.dir, "repos") });
    cli = await new GitCli(root.dir).setup();
  });

  afterAll(() => root.cleanup());

  it("creates an empty bare repository at <owner>/<name>.git, lower-cased, with HEAD on the default branch", async () => {
    const repo = await store.create("Alice", "My-Repo", { defaultBranch: "trunk" });
    expect(repo.gitdir).toBe(join(root.dir, "repos", "alice", "my-repo.git"));
    expect(await readFile(join(repo.gitdir, "HEAD"), "utf8")).toBe("ref: refs/heads/trunk\n");
    expect(await cli.ok(["rev-parse", "--is-bare-repository"], repo.gitdir)).toBe("true");
    expect(await cli.ok(["for-each-ref"], repo.gitdir)).toBe("");
    await access(join(repo.gitdir, "hooks", "pre-receive"), constants.X_OK);
    await access(join(repo.gitdir, "hooks", "post-receive"), constants.X_OK);
    expect(await store.exists("alice", "my-repo")).toBe(true);
    expect((await store.open("ALICE", "MY-REPO")).gitdir).toBe(repo.gitdir);
  });

  it("auto-initialises with a README commit by the given author on the default branch", async () => {
    const repo = await store.create("alice", "init", {
      defaultBranch: "develop",
      autoInit: { author, description: "A test repository" },
    });
    const log = await cli.ok(["log", "--format=%an <%ae> %ai|%s", "develop"], repo.gitdir);
    expect(log).toBe("Ann Author <ann@example.com> 2024-03-01 11:00:00 +0100|Initial commit");
    expect(await cli.ok(["show", "develop:README.md"], repo.gitdir)).toBe("# init\n\nA test repository");
    expect(await cli.ok(["fsck", "--strict"], repo.gitdir)).toBe("");
  });

  it("refuses existing repositories and bad names, leaving no temporary directories", async () => {
    await expect(store.create("alice", "init")).rejects.toBeInstanceOf(GitAlreadyExistsError);
    await expect(store.create("alice", "INIT")).rejects.toBeInstanceOf(GitAlreadyExistsError);
    await expect(store.create("alice", "../evil")).rejects.toBeInstanceOf(GitInvalidArgumentError);
    await expect(store.create(".hidden", "x")).rejects.toBeInstanceOf(GitInvalidArgumentError);
    await expect(store.create("alice", "x", { defaultBranch: "bad..name" })).rejects.toBeInstanceOf(
      GitInvalidArgumentError,
    );
    expect(await readdir(join(root.dir, "repos", ".tmp"))).toEqual([]);
    await expect(store.open("alice", "nothing")).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("moves a repository to a new name and owner, keeping its hooks", async () => {
    await store.create("alice", "moving", { autoInit: { author } });
    const moved = await store.move({ owner: "alice", name: "moving" }, { owner: "Org", name: "Moved" });
    expect(moved.gitdir).toBe(join(root.dir, "repos", "org", "moved.git"));
    expect(await store.exists("alice", "moving")).toBe(false);
    expect(await cli.ok(["log", "--format=%s", "main"], moved.gitdir)).toBe("Initial commit");
    await access(join(moved.gitdir, "hooks", "pre-receive"), constants.X_OK);
    await store.create("alice", "taken");
    await expect(
      store.move({ owner: "org", name: "moved" }, { owner: "alice", name: "taken" }),
    ).rejects.toBeInstanceOf(GitAlreadyExistsError);
    await expect(
      store.move({ owner: "alice", name: "gone" }, { owner: "org", name: "x" }),
    ).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("deletes a repository", async () => {
    await store.create("alice", "doomed");
    await store.delete("alice", "doomed");
    expect(await store.exists("alice", "doomed")).toBe(false);
    await expect(store.delete("alice", "doomed")).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("carries a repository's wiki along when it moves or goes, and leaves nothing behind", async () => {
    await store.create("wo", "book");
    const wiki = await store.create("wo", wikiRepoName("book"));
    expect(wiki.gitdir).toBe(join(root.dir, "repos", "wo", "book.wiki.git"));
    await changeFiles(wiki, {
      files: [{ operation: "create", path: "Home.md", content: Buffer.from("hi") }],
      author,
    });
    await store.move({ owner: "wo", name: "book" }, { owner: "other", name: "novel" });
    expect(await store.exists("wo", wikiRepoName("book"))).toBe(false);
    const moved = await store.open("other", wikiRepoName("novel"));
    expect(await cli.ok(["show", "HEAD:Home.md"], moved.gitdir)).toBe("hi");
    await access(join(moved.gitdir, "hooks", "post-receive"), constants.X_OK);
    // A repository without a wiki moves as before.
    await store.create("wo", "plain");
    await store.move({ owner: "wo", name: "plain" }, { owner: "wo", name: "plain2" });
    expect(await store.exists("wo", wikiRepoName("plain2"))).toBe(false);
    await store.delete("other", "novel");
    expect(await store.exists("other", "novel")).toBe(false);
    expect(await store.exists("other", wikiRepoName("novel"))).toBe(false);
    expect(await readdir(join(root.dir, "repos", ".tmp"))).toEqual([]);
  });

  it("never lets a new or moved repository inherit a wiki left by one that is gone", async () => {
    // A wiki whose repository is gone (a crash, a race with a deletion).
    await store.create("wo", wikiRepoName("ghost"));
    await store.create("wo", "ghost");
    expect(await store.exists("wo", wikiRepoName("ghost"))).toBe(false);
    await store.create("wo", wikiRepoName("target"));
    await store.create("wo", "source");
    await store.move({ owner: "wo", name: "source" }, { owner: "wo", name: "target" });
    expect(await store.exists("wo", wikiRepoName("target"))).toBe(false);
  });

  it("measures the size on disk, which grows with content", async () => {
    const repo = await store.create("alice", "sized");
    const empty = await store.size("alice", "sized");
    expect(empty).toBeGreaterThan(0);
    await changeFiles(repo, {
      author,
      files: [
        {
          operation: "create",
          path: "big.bin",
          content: Buffer.from(crypto.getRandomValues(new Uint8Array(50_000))),
        },
      ],
    });
    expect(await store.size("alice", "sized")).toBeGreaterThan(empty + 50_000);
  });

  it("leaves the commit-graph out of the size, however late it is written", async () => {
    const repo = await store.create("alice", "indexed", { autoInit: { author } });
    const before = await store.size("alice", "indexed");
    await writeCommitGraph(repo);
    await writeCommitGraph(repo);
    expect(await readdir(join(repo.gitdir, "objects", "info", "commit-graphs"))).not.toEqual([]);
    expect(await store.size("alice", "indexed")).toBe(before);
  });

  it("leaves git's quarantines and temporary packs out of the size and lists them as leftovers", async () => {
    const repo = await store.create("alice", "quarantined");
    const before = await store.size("alice", "quarantined");
    // What a push killed before git moved its objects in leaves: a quarantine holding them.
    const quarantine = join(repo.gitdir, "objects", "tmp_objdir-incoming-AbC123");
    await mkdir(join(quarantine, "pack"), { recursive: true });
    await writeFile(join(quarantine, "pack", "pack-1.pack"), Buffer.alloc(4000));
    await writeFile(join(repo.gitdir, "objects", "pack", "tmp_pack_XyZ"), Buffer.alloc(100));
    const trash = await store.tempDir();
    await writeFile(join(trash, "half"), "half");
    expect(await store.size("alice", "quarantined")).toBe(before);
    const found = await store.leftovers();
    expect(found.map((l) => [l.kind, l.path, l.bytes])).toEqual(
      expect.arrayContaining([
        ["push quarantine", quarantine, 4000],
        ["temporary pack", join(repo.gitdir, "objects", "pack", "tmp_pack_XyZ"), 100],
        ["repository temporary directory", trash, 4],
      ]),
    );
    expect(found.every((l) => Date.now() - l.modified.getTime() < 3_600_000)).toBe(true);
    await rm(trash, { recursive: true });
  });

  it("rewrites hooks only when they differ", async () => {
    const repo = await store.create("alice", "hooked");
    expect(await store.ensureHooks("alice", "hooked")).toBe(false);
    await writeFile(join(repo.gitdir, "hooks", "pre-receive"), "#!/bin/sh\nexit 0\n");
    expect(await store.ensureHooks("alice", "hooked")).toBe(true);
    expect(await readFile(join(repo.gitdir, "hooks", "pre-receive"), "utf8")).toContain("KILN_PUSH_HOOK");
  });

  it("serializes concurrent API writes so none is lost", async () => {
    const repo = await store.create("alice", "busy", { autoInit: { author } });
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        changeFiles(repo, {
          author,
          files: [{ operation: "create", path: `f${index}.txt`, content: Buffer.from(`${index}\n`) }],
        }),
      ),
    );
    expect(await cli.ok(["rev-list", "--count", "main"], repo.gitdir)).toBe("9");
    const files = (await cli.ok(["ls-tree", "--name-only", "main"], repo.gitdir)).split("\n");
    expect(files).toHaveLength(9);
    expect(await cli.ok(["fsck", "--strict"], repo.gitdir)).toBe("");
  });
});
