import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { GitMergeRefusedError } from "../errors/git-error.js";
import { fetchCommit, hasCommit, updateForkBranchFromBase } from "./cross-repo.js";
import { commitMessages } from "./messages.js";

const doer = { name: "Maintainer", email: "maintainer@example.com", date: new Date("2025-06-01T12:00:00Z") };

describe("pull requests across repositories", () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let cli: GitCli;
  let base: GitRepository;
  let fork: GitRepository;
  let work: string;

  const rev = (repo: GitRepository, ref: string) => cli.ok(["--git-dir", repo.gitdir, "rev-parse", ref]);
  async function commit(file: string, message: string, to: GitRepository, branch: string) {
    await writeFile(join(work, file), `${message}\n`);
    await cli.ok(["add", "-A"], work);
    await cli.ok(["commit", "--quiet", "-m", message], work);
    await cli.ok(["push", "--quiet", "--force", to.gitdir, `HEAD:refs/heads/${branch}`], work);
    return cli.ok(["rev-parse", "HEAD"], work);
  }

  beforeAll(async () => {
    root = await scratch();
    cli = await new GitCli(root.dir).setup();
    const store = new RepoStore({ root: join(root.dir, "repos") });
    base = await store.create("alice", "base");
    fork = await store.create("bob", "base");
    work = join(root.dir, "work");
    await cli.ok(["init", "--quiet", work]);
  });
  afterAll(() => root.cleanup());

  it("copies a fork's commit that is no ref's tip into the base, moving no ref", async () => {
    await commit("a.txt", "First", base, "main");
    const first = await commit("f.txt", "Fork work", fork, "feature");
    const second = await commit("g.txt", "More fork work", fork, "feature");
    expect(await hasCommit(base, first)).toBe(false);
    await fetchCommit(base, fork, first);
    expect(await hasCommit(base, first)).toBe(true);
    expect(await hasCommit(base, second)).toBe(false);
    expect(await cli.ok(["--git-dir", base.gitdir, "for-each-ref", "--format=%(refname)"])).toBe(
      "refs/heads/main",
    );
    await expect(fetchCommit(base, fork, "--upload-pack=touch")).rejects.toThrow();
  });

  it("updates the fork's branch with a merge commit written in the base, as the check allows", async () => {
    const head = await rev(fork, "feature");
    await fetchCommit(base, fork, head);
    await cli.ok(["checkout", "--quiet", "-B", "main", await rev(base, "main")], work);
    const baseSha = await commit("b.txt", "Base moves", base, "main");
    const request = {
      style: "merge" as const,
      headBranch: "feature",
      headSha: head,
      baseSha,
      message: "Merge branch 'main' into feature",
      doer,
    };
    await expect(
      updateForkBranchFromBase(base, fork, { ...request, check: async () => "refused by policy" }),
    ).rejects.toBeInstanceOf(GitMergeRefusedError);
    expect(await rev(fork, "feature")).toBe(head);
    const next = await updateForkBranchFromBase(base, fork, request);
    expect(await rev(fork, "feature")).toBe(next);
    expect(await cli.ok(["--git-dir", fork.gitdir, "rev-list", "--parents", "-n1", "feature"])).toBe(
      `${next} ${head} ${baseSha}`,
    );
  });

  it("lists commit messages of a range, newest first and bounded", async () => {
    const tip = await rev(fork, "feature");
    const all = await commitMessages(fork, tip, { limit: 10 });
    expect(all[0]).toEqual({ sha: tip, message: "Merge branch 'main' into feature" });
    expect(all.map((c) => c.message).sort()).toEqual([
      "Base moves",
      "First",
      "Fork work",
      "Merge branch 'main' into feature",
      "More fork work",
    ]);
    const before = await rev(fork, "feature^1");
    expect(
      (await commitMessages(fork, tip, { since: before, limit: 10 })).map((c) => c.message).sort(),
    ).toEqual(["Base moves", "Merge branch 'main' into feature"]);
    expect(await commitMessages(fork, tip, { since: before, limit: 1 })).toHaveLength(1);
    expect(await commitMessages(fork, "--all", { limit: 10 })).toEqual([]);
  });
});
