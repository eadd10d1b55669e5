import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { commitMessages, MAX_MESSAGE_BYTES } from "./messages.js";

/** Commit messages read for closing keywords, from hostile commits written with `git commit-tree` (no clean-up). */
describe("commit messages of hostile commits", () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let cli: GitCli;
  let repo: GitRepository;
  // The empty tree, which git knows without storing it.
  const tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

  /** A commit on `parent` (or a root commit) whose message is exactly `message`. */
  async function commitTree(message: string, parent?: string): Promise<string> {
    const file = join(root.dir, "message");
    await writeFile(file, message);
    return cli.ok([
      "--git-dir",
      repo.gitdir,
      "commit-tree",
      tree,
      ...(parent ? ["-p", parent] : []),
      "-F",
      file,
    ]);
  }

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
    const [read] = await commitMessages(repo, sha, { limit: 1 });
    expect(read?.message).toBe(message.replace(/\n\n\n$/, ""));
  });
});
