import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { RepoStore } from "../disk/repo-store.js";
import {
  GitAlreadyExistsError,
  GitConflictError,
  GitInvalidArgumentError,
  GitNotFoundError,
  GitShaMismatchError,
} from "../errors/git-error.js";
import { changeFiles } from "./change-files.js";
import { getCommit } from "./commits.js";
import { getContents, openRawFile } from "./contents.js";

const author = {
  name: "Ann",
  email: "ann@example.com",
  date: new Date("2024-05-01T12:00:00Z"),
  timezoneOffset: 120,
};
const committer = { name: "Cid", email: "cid@example.com", date: new Date("2024-05-02T12:00:00Z") };
const text = (value: string) => Buffer.from(value);

describe("changeFiles", () => {
  let fx: FixtureRepo;
  const blobSha = async (ref: string, path: string) =>
    fx.cli.ok(["rev-parse", `${ref}:${path}`], fx.repo.gitdir);
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("creates a file in a new commit with the given message, author and committer", async () => {
    const result = await changeFiles(fx.repo, {
      message: "Add notes",
      author,
      committer,
      files: [{ operation: "create", path: "notes/today.md", content: text("hi\n") }],
    });
    expect(result.branch).toBe("main");
    expect(result.files).toEqual([
      { path: "notes/today.md", sha: await blobSha("main", "notes/today.md"), mode: "100644", size: 3 },
    ]);
    const commit = await getCommit(fx.repo, "main");
    expect(commit).toMatchObject({
      sha: result.commit.sha,
      message: "Add notes\n",
      parents: [fx.shas.three],
    });
    expect(commit.author).toEqual({
      name: "Ann",
      email: "ann@example.com",
      timestamp: 1714564800,
      timezoneOffset: 120,
    });
    expect(commit.committer).toMatchObject({ name: "Cid", timestamp: 1714651200, timezoneOffset: 0 });
    expect(commit.files).toEqual([
      { filename: "notes/today.md", status: "added", additions: 1, deletions: 0 },
    ]);
    expect(await fx.cli.ok(["fsck", "--strict"], fx.repo.gitdir)).toBe("");
  });

  it("updates with the current sha, keeps the executable bit, and refuses a stale sha", async () => {
    const sha = await blobSha("main", "run.sh");
    await expect(
      changeFiles(fx.repo, {
        author,
        files: [{ operation: "update", path: "run.sh", sha: "0".repeat(40), content: text("x") }],
      }),
    ).rejects.toBeInstanceOf(GitShaMismatchError);
    const result = await changeFiles(fx.repo, {
      author,
      files: [{ operation: "update", path: "run.sh", sha, content: text("#!/bin/sh\necho new\n") }],
    });
    expect(result.files[0]).toMatchObject({ mode: "100755" });
    expect(result.commit.message).toBe("Update 'run.sh'\n");
    expect(await new Response(await (await openRawFile(fx.repo, "run.sh")).open()).text()).toBe(
      "#!/bin/sh\necho new\n",
    );
  });

  it("deletes with the current sha and reports a missing path as not-found", async () => {
    const sha = await blobSha("main", "vendor/lib.js");
    await expect(
      changeFiles(fx.repo, { author, files: [{ operation: "delete", path: "vendor/nothing.js", sha }] }),
    ).rejects.toBeInstanceOf(GitNotFoundError);
    await changeFiles(fx.repo, { author, files: [{ operation: "delete", path: "vendor/lib.js", sha }] });
    await expect(getContents(fx.repo, "vendor")).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("applies create, update, rename and delete in one commit", async () => {
    const readme = await blobSha("main", "README.md");
    const index = await blobSha("main", "src/index.ts");
    const docker = await blobSha("main", "Dockerfile");
    const before = (await getCommit(fx.repo, "main")).sha;
    const result = await changeFiles(fx.repo, {
      message: "Many changes",
      author,
      signoff: true,
      files: [
        { operation: "create", path: "a.txt", content: text("a\n") },
        { operation: "update", path: "README.md", sha: readme, content: text("# new\n") },
        { operation: "rename", fromPath: "src/index.ts", path: "lib/index.ts", sha: index },
        {
          operation: "update",
          fromPath: "Dockerfile",
          path: "Containerfile",
          sha: docker,
          content: text("FROM x\n"),
        },
        { operation: "delete", path: "link", sha: await blobSha("main", "link") },
      ],
    });
    const commit = await getCommit(fx.repo, "main");
    expect(commit.parents).toEqual([before]);
    expect(commit.message).toBe("Many changes\n\nSigned-off-by: Ann <ann@example.com>\n");
    expect(commit.files.map((file) => `${file.status} ${file.filename}`)).toEqual(
      [
        "removed Dockerfile",
        "added Containerfile",
        "modified README.md",
        "added a.txt",
        "added lib/index.ts",
        "removed link",
        "removed src/index.ts",
      ].sort((x, y) => (x.split(" ")[1]! < y.split(" ")[1]! ? -1 : 1)),
    );
    expect(await blobSha("main", "lib/index.ts")).toBe(index);
    expect(result.files[4]).toBeNull();
  });

  it("refuses creating an existing file, a file under a file, and an empty list", async () => {
    await expect(
      changeFiles(fx.repo, { author, files: [{ operation: "create", path: "a.txt", content: text("") }] }),
    ).rejects.toBeInstanceOf(GitAlreadyExistsError);
    await expect(
      changeFiles(fx.repo, { author, files: [{ operation: "create", path: "a.txt/b", content: text("") }] }),
    ).rejects.toBeInstanceOf(GitInvalidArgumentError);
    await expect(changeFiles(fx.repo, { author, files: [] })).rejects.toBeInstanceOf(GitInvalidArgumentError);
  });

  it("requires the target branch to exist and can start a new branch from it", async () => {
    const create = { operation: "create" as const, path: "branchy.txt", content: text("b\n") };
    await expect(changeFiles(fx.repo, { author, branch: "nope", files: [create] })).rejects.toBeInstanceOf(
      GitNotFoundError,
    );
    const result = await changeFiles(fx.repo, {
      author,
      branch: "feature",
      newBranch: "topic",
      files: [create],
    });
    expect(result.branch).toBe("topic");
    expect((await getCommit(fx.repo, "topic")).parents).toEqual([fx.shas.two]);
    expect((await getCommit(fx.repo, "feature")).sha).toBe(fx.shas.two);
    await expect(
      changeFiles(fx.repo, {
        author,
        branch: "feature",
        newBranch: "topic",
        files: [{ ...create, path: "z" }],
      }),
    ).rejects.toBeInstanceOf(GitAlreadyExistsError);
  });

  it("creates the first commit of an empty repository", async () => {
    const empty = await fx.store.create("alice", "blank", { defaultBranch: "trunk" });
    const result = await changeFiles(empty, {
      author,
      files: [{ operation: "create", path: "x.txt", content: text("x") }],
    });
    expect(result.branch).toBe("trunk");
    expect(result.commit.parents).toEqual([]);
  });

  it("is a conflict, moving nothing, while another process holds the branch's lock (as git does)", async () => {
    const repo = await fx.store.create("alice", "locked");
    await changeFiles(repo, { author, files: [{ operation: "create", path: "a", content: text("a") }] });
    const before = (await getCommit(repo, "main")).sha;
    const lock = join(repo.gitdir, "refs/heads/main.lock");
    await writeFile(lock, "");
    await expect(
      changeFiles(repo, { author, files: [{ operation: "create", path: "b", content: text("b") }] }),
    ).rejects.toBeInstanceOf(GitConflictError);
    expect((await getCommit(repo, "main")).sha).toBe(before);
    // The other process's lock is not ours to remove.
    expect(existsSync(lock)).toBe(true);
    await rm(lock);
    await changeFiles(repo, { author, files: [{ operation: "create", path: "b", content: text("b") }] });
    expect(await fx.cli.ok(["ls-tree", "--name-only", "main"], repo.gitdir)).toBe("a\nb");
  });

  it("loses no write when two processes commit to one branch at once: each succeeds or conflicts", async () => {
    const repo = await fx.store.create("alice", "raced");
    await changeFiles(repo, { author, files: [{ operation: "create", path: "base", content: text("0") }] });
    // Two stores on one directory stand for two server processes: their write locks are separate.
    const other = await new RepoStore({ root: fx.store.root }).open("alice", "raced");
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        changeFiles(i % 2 === 0 ? repo : other, {
          author,
          files: [{ operation: "create", path: `f${i}`, content: text(String(i)) }],
        }).then(
          () => `f${i}`,
          (err: unknown) => {
            expect(err).toBeInstanceOf(GitConflictError);
            return undefined;
          },
        ),
      ),
    );
    const written = outcomes.filter((name): name is string => name !== undefined);
    expect(written.length).toBeGreaterThan(0);
    const tree = (await fx.cli.ok(["ls-tree", "--name-only", "main"], repo.gitdir)).split("\n");
    expect(tree.sort()).toEqual(["base", ...written].sort());
    const commits = await fx.cli.ok(["rev-list", "--count", "main"], repo.gitdir);
    expect(Number(commits)).toBe(written.length + 1);
    expect(existsSync(join(repo.gitdir, "refs/heads/main.lock"))).toBe(false);
  });

  it("refuses a branch whose name another ref blocks, as git does, with a conflict", async () => {
    const repo = await fx.store.create("alice", "blocked");
    await changeFiles(repo, { author, files: [{ operation: "create", path: "a", content: text("a") }] });
    for (const newBranch of ["main/sub", "deep/er"]) {
      if (newBranch === "deep/er")
        await changeFiles(repo, {
          author,
          newBranch: "deep/er/est",
          files: [{ operation: "create", path: "c", content: text("c") }],
        });
      await expect(
        changeFiles(repo, {
          author,
          newBranch,
          files: [{ operation: "create", path: "b", content: text("b") }],
        }),
      ).rejects.toBeInstanceOf(GitConflictError);
    }
    expect(await fx.cli.ok(["for-each-ref", "--format=%(refname)"], repo.gitdir)).toBe(
      "refs/heads/deep/er/est\nrefs/heads/main",
    );
  });
});
