import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, rawCommit, scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { MAX_SHORT_RANGE } from "../objects/short-history.js";
import { commitMessages, MAX_MESSAGE_BYTES } from "./messages.js";

/** Commit messages read for closing keywords, from hostile commits written with `git commit-tree` (no clean-up). */
describe("commit messages of hostile commits", () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let cli: GitCli;
  let repo: GitRepository;
  /** A commit on `parent` (or a root commit) whose message is exactly `message`. */
  const commitTree = (message: string, parent?: string) =>
    rawCommit(cli, repo.gitdir, root.dir, message, ...(parent ? [parent] : []));

  beforeAll(async () => {
    root = await scratch();
    cli = await new GitCli(root.dir).setup();
    repo = await new RepoStore({ root: join(root.dir, "repos") }).create("eve", "huge");
  });
  afterAll(() => root.cleanup());

  it("reads at most MAX_MESSAGE_BYTES of messages, however large they are, newest first", async () => {
    let tip: string | undefined;
    for (let i = 0; i < 3; i++) tip = await commitTree(`Fixes #${i}\n${"x".repeat(3 * 1024 * 1024)}\n`, tip);
    const messages = await commitMessages(repo, tip as string, { limit: 10 });
    const total = messages.reduce((sum, m) => sum + m.message.length, 0);
    expect(total).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(messages[0]?.sha).toBe(tip);
    expect(messages[0]?.message.startsWith("Fixes #2\n")).toBe(true);
  });

  // Trimmed with a backtracking `/\n+$/`, this message kept a push's transaction busy for minutes.
  it("reads a message made of a long run of newlines", async () => {
    const message = `${"\n".repeat(1_000_000)}Fixes #1\n\n\n`;
    const sha = await commitTree(message);
    // Past the short in-process read, `git log` gives the message as it is stored.
    const [read] = await commitMessages(repo, sha, { limit: MAX_SHORT_RANGE + 1 });
    expect(read?.message).toBe(message.replace(/\n\n\n$/, ""));
    // The in-process read gives it as the commit parser does (without the blank lines it starts with).
    const [short] = await commitMessages(repo, sha, { limit: 1 });
    expect(short?.message).toBe("Fixes #1");
  });

  it("reads short histories in process with git log's answer: a new branch, a straight push, a merge", async () => {
    const viaGit = (head: string, since?: string) =>
      cli
        .ok([
          "--git-dir",
          repo.gitdir,
          "log",
          "--format=%H",
          ...(since ? [`${since}..${head}`] : [head]),
          "--",
        ])
        .then((out) => out.split("\n").filter(Boolean));
    const first = await commitTree("root\n");
    let tip = first;
    for (let i = 0; i < 4; i++) tip = await commitTree(`Fixes #${i}\n\nbody ${i}\n`, tip);
    const branch = await commitMessages(repo, tip, { limit: 10 });
    expect(branch.map((m) => m.sha)).toEqual(await viaGit(tip));
    expect(branch[0]?.message).toBe("Fixes #3\n\nbody 3");
    const pushed = await commitMessages(repo, tip, { since: first, limit: 1000 });
    expect(pushed.map((m) => m.sha)).toEqual(await viaGit(tip, first));
    expect(await commitMessages(repo, tip, { since: first, limit: 2 })).toEqual(pushed.slice(0, 2));
    // A merge on the way, and a base that is not an ancestor: git answers.
    const side = await commitTree("side\n", first);
    const merge = await rawCommit(cli, repo.gitdir, root.dir, "Merge side, fixes #9\n", tip, side);
    const merged = await commitMessages(repo, merge, { since: first, limit: 1000 });
    expect(merged.map((m) => m.sha)).toEqual(await viaGit(merge, first));
    expect(merged).toHaveLength(6);
    const unrelated = await commitMessages(repo, tip, { since: side, limit: 1000 });
    expect(unrelated.map((m) => m.sha)).toEqual(await viaGit(tip, side));
  });
});
