import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { startTestServer } from "../../test/test-server.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitMigrationError } from "../errors/git-error.js";
import { LfsStore } from "../lfs/lfs-store.js";
import { listBranches } from "../objects/branches.js";
import { listTags } from "../objects/tags.js";
import { cloneRemote } from "./clone-remote.js";

describe("cloneRemote", () => {
  let fx: FixtureRepo;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    fx = await fixtureRepo();
    server = await startTestServer(fx.store, new LfsStore(join(fx.store.root, "..", "lfs")));
  });
  afterAll(async () => {
    await server.close();
    await fx.cleanup();
  });

  it("clones branches and tags over HTTP into a new repository with hooks and no remote", async () => {
    const repo = await cloneRemote(fx.store, "bob", "copy", { url: `${server.url}/alice/fixture.git` });
    expect((await listBranches(repo)).map((b) => [b.name, b.commit.sha])).toEqual([
      ["feature", fx.shas.two],
      ["main", fx.shas.three],
    ]);
    expect((await listTags(repo)).map((t) => t.name)).toEqual(["v1", "v2"]);
    expect(await fx.cli.ok(["remote"], repo.gitdir)).toBe("");
    expect(await readdir(join(repo.gitdir, "hooks"))).toEqual(
      expect.arrayContaining(["pre-receive", "post-receive"]),
    );
  });

  it("clones a local path only when allowed", async () => {
    await expect(cloneRemote(fx.store, "bob", "local", { url: fx.repo.gitdir })).rejects.toBeInstanceOf(
      GitInvalidArgumentError,
    );
    const repo = await cloneRemote(fx.store, "bob", "local", { url: fx.repo.gitdir, allowLocal: true });
    expect((await listBranches(repo)).length).toBe(2);
  });

  it("leaves nothing behind when the clone fails or the name is taken", async () => {
    await expect(
      cloneRemote(fx.store, "bob", "broken", { url: `${server.url}/alice/missing.git` }),
    ).rejects.toBeInstanceOf(GitMigrationError);
    expect(await fx.store.exists("bob", "broken")).toBe(false);
    await expect(
      cloneRemote(fx.store, "bob", "copy", { url: `${server.url}/alice/fixture.git` }),
    ).rejects.toBeInstanceOf(GitAlreadyExistsError);
    await expect(
      cloneRemote(fx.store, "bob", "x", { url: "ftp://example.com/x.git" }),
    ).rejects.toBeInstanceOf(GitInvalidArgumentError);
    expect(await readdir(join(fx.store.root, ".tmp"))).toEqual([]);
  });
});
