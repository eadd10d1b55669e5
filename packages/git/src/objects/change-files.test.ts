import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import {
  GitAlreadyExistsError,
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
});
