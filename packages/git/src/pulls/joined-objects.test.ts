import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { hasCommit } from "./cross-repo.js";
import { withJoinedObjects } from "./joined-objects.js";

describe("a joined view of two repositories' objects", () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let cli: GitCli;
  let base: GitRepository;
  let fork: GitRepository;

  async function commit(to: GitRepository, file: string): Promise<string> {
    const work = join(root.dir, `work-${file}`);
    await cli.ok(["init", "--quiet", work]);
    await writeFile(join(work, file), `${file}\n`);
    await cli.ok(["add", "-A"], work);
    await cli.ok(["commit", "--quiet", "-m", file], work);
    await cli.ok(["push", "--quiet", to.gitdir, "HEAD:refs/heads/main"], work);
    return cli.ok(["rev-parse", "HEAD"], work);
  }

  beforeAll(async () => {
    root = await scratch();
    cli = await new GitCli(root.dir).setup();
    const store = new RepoStore({ root: join(root.dir, "repos") });
    base = await store.create("alice", "base");
    fork = await store.create("bob", "base");
  });
  afterAll(() => root.cleanup());

  it("reads the commits of both, writes into neither, and leaves nothing behind", async () => {
    const inBase = await commit(base, "a.txt");
    const inFork = await commit(fork, "b.txt");
    let viewDir = "";
    const seen = await withJoinedObjects(base, fork, async (view) => {
      viewDir = view.gitdir;
      await expect(view.withWriteLock(async () => 1)).rejects.toThrow();
      return [await hasCommit(view, inBase), await hasCommit(view, inFork)];
    });
    expect(seen).toEqual([true, true]);
    expect(await hasCommit(base, inFork)).toBe(false);
    expect(await hasCommit(fork, inBase)).toBe(false);
    expect(existsSync(viewDir)).toBe(false);
  });
});
