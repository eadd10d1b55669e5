import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, rawCommit, scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { rangeCommits } from "../pulls/diff.js";
import { MAX_SHORT_RANGE, straightRange } from "./short-history.js";

describe("short ranges read in process", () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let cli: GitCli;
  let repo: GitRepository;
  const commit = (message: string, ...parents: string[]) =>
    rawCommit(cli, repo.gitdir, root.dir, message, ...parents);
  const revList = async (range: string) =>
    (await cli.ok(["--git-dir", repo.gitdir, "rev-list", range])).split("\n").filter(Boolean);

  beforeAll(async () => {
    root = await scratch();
    cli = await new GitCli(root.dir).setup();
    repo = await new RepoStore({ root: join(root.dir, "repos") }).create("ann", "line");
  });
  afterAll(() => root.cleanup());

  it("gives rangeCommits the pages and total git gives, in process or not", async () => {
    const base = await commit("base\n");
    let tip = base;
    for (let i = 0; i < MAX_SHORT_RANGE + 5; i++) tip = await commit(`c${i}\n`, tip);
    let short = base;
    for (let i = 0; i < 7; i++) short = await commit(`s${i}\n`, short);

    expect((await straightRange(repo, base, short))?.map((c) => c.oid)).toEqual(
      await revList(`${base}..${short}`),
    );
    // Longer than the in-process bound: git's.
    expect(await straightRange(repo, base, tip)).toBeUndefined();
    for (const head of [short, tip]) {
      const all = await revList(`${base}..${head}`);
      const page = await rangeCommits(repo, base, head, { skip: 2, limit: 3 });
      expect(page.total).toBe(all.length);
      expect(page.commits.map((c) => c.sha)).toEqual(all.slice(2, 5));
    }
    // The same commit on both sides is an empty range; a name is git's to resolve.
    expect(await straightRange(repo, short, short)).toEqual([]);
    expect(await straightRange(repo, "main", short)).toBeUndefined();
  });
});
