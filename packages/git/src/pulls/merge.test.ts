import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { GitConflictError, GitMergeConflictError, GitMergeRefusedError } from "../errors/git-error.js";
import { aheadBehind, isAncestor, mergeBase } from "./compare.js";
import { changedFiles, diffStream, rangeCommits } from "./diff.js";
import { mergeIntoBranch, updateBranchFromBase } from "./merge.js";
import { mergeTree } from "./merge-tree.js";

const doer = { name: "Merger", email: "merger@example.com", date: new Date("2025-06-01T12:00:00Z") };
const poster = { name: "Poster", email: "poster@example.com" };

describe("merging pull requests with git", () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let cli: GitCli;
  let store: RepoStore;
  let repo: GitRepository;
  let work: string;
  let n = 0;

  const rev = (ref: string) => cli.ok(["--git-dir", repo.gitdir, "rev-parse", ref]);
  const log = (range: string, format = "%s") =>
    cli
      .ok(["--git-dir", repo.gitdir, "log", `--format=${format}`, ...range.split(" ")])
      .then((out) => out.split("\n"));
  async function commit(
    branch: string,
    files: Record<string, string | null>,
    message: string,
    author = "Alice",
  ) {
    // The first commit is made on the unborn default branch.
    if ((await cli.run(["rev-parse", "--verify", "--quiet", "HEAD"], work)).code === 0) {
      await cli.ok(["checkout", "--quiet", branch], work);
    }
    for (const [path, content] of Object.entries(files)) {
      if (content === null) await cli.ok(["rm", "--quiet", path], work);
      else {
        await mkdir(dirname(join(work, path)), { recursive: true });
        await writeFile(join(work, path), content);
      }
    }
    await cli.ok(["add", "-A"], work);
    await cli.ok(["commit", "--quiet", "-m", message], work, {
      GIT_AUTHOR_NAME: author,
      GIT_AUTHOR_EMAIL: `${author.toLowerCase()}@example.com`,
      GIT_AUTHOR_DATE: "2024-03-04T05:06:07+02:00",
    });
    await cli.ok(["push", "--quiet", "--force", repo.gitdir, `${branch}:${branch}`], work);
    return cli.ok(["rev-parse", "HEAD"], work);
  }

  beforeAll(async () => {
    root = await scratch();
    cli = await new GitCli(root.dir).setup();
    store = new RepoStore({ root: join(root.dir, "repos") });
  });
  afterAll(() => root.cleanup());

  /** A fresh repository: main with a base file, `head` branched from it with two commits, main one further. */
  beforeEach(async () => {
    n++;
    repo = await store.create("alice", `pulls-${n}`);
    work = join(root.dir, `work-${n}`);
    await cli.ok(["init", "--quiet", work]);
    await commit("main", { "a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n" }, "base");
    await cli.ok(["checkout", "--quiet", "-b", "head"], work);
    await commit("head", { "c.txt": "see\n" }, "add c", "Carol");
    await commit("head", { "a.txt": "one\ntwo\nthree\nfour\n" }, "append to a", "Dave");
    await commit("main", { "b.txt": "bee bee\n" }, "change b");
  });

  it("merges with a merge commit of both heads, authored by the merger", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const merged = await mergeIntoBranch(repo, {
      style: "merge",
      baseBranch: "main",
      baseSha: base,
      headSha: head,
      message: "Merge pull request 'x' (#1) from head into main",
      doer,
    });
    expect(await rev("main")).toBe(merged);
    expect(await cli.ok(["--git-dir", repo.gitdir, "rev-list", "--parents", "-n1", merged])).toBe(
      `${merged} ${base} ${head}`,
    );
    expect(await log("-1", "%an <%ae>|%cn|%s|%aI")).toEqual([
      "Merger <merger@example.com>|Merger|Merge pull request 'x' (#1) from head into main|2025-06-01T12:00:00+00:00",
    ]);
    expect(await cli.ok(["--git-dir", repo.gitdir, "show", "main:a.txt"])).toBe("one\ntwo\nthree\nfour");
    expect(await cli.ok(["--git-dir", repo.gitdir, "show", "main:b.txt"])).toBe("bee bee");
  });

  it("squashes into one commit on the base, authored by the poster and committed by the merger", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const merged = await mergeIntoBranch(repo, {
      style: "squash",
      baseBranch: "main",
      baseSha: base,
      headSha: head,
      message: "squashed (#1)\n\n* add c\n* append to a",
      doer,
      squashAuthor: poster,
    });
    expect(await cli.ok(["--git-dir", repo.gitdir, "rev-list", "--parents", "-n1", merged])).toBe(
      `${merged} ${base}`,
    );
    expect(await log("-1", "%an|%cn|%B")).toEqual([
      "Poster|Merger|squashed (#1)",
      "",
      "* add c",
      "* append to a",
    ]);
    expect(await cli.ok(["--git-dir", repo.gitdir, "ls-tree", "--name-only", "main"])).toBe(
      "a.txt\nb.txt\nc.txt",
    );
  });

  it("rebases the head's commits onto the base, keeping their authors and dates", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const merged = await mergeIntoBranch(repo, {
      style: "rebase",
      baseBranch: "main",
      baseSha: base,
      headSha: head,
      message: "",
      doer,
    });
    expect(merged).not.toBe(head);
    expect(await log(`${base}..main`, "%s|%an|%aI|%cn|%P")).toEqual([
      expect.stringMatching(/^append to a\|Dave\|2024-03-04T05:06:07\+02:00\|Merger\|[0-9a-f]{40}$/),
      `add c|Carol|2024-03-04T05:06:07+02:00|Merger|${base}`,
    ]);
    expect(await cli.ok(["--git-dir", repo.gitdir, "rev-list", "--merges", "--count", "main"])).toBe("0");
    expect(await cli.ok(["--git-dir", repo.gitdir, "show", "main:a.txt"])).toBe("one\ntwo\nthree\nfour");
  });

  it("rebases then merges with a merge commit (rebase-merge)", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const merged = await mergeIntoBranch(repo, {
      style: "rebase-merge",
      baseBranch: "main",
      baseSha: base,
      headSha: head,
      message: "merge it",
      doer,
    });
    const parents = (await cli.ok(["--git-dir", repo.gitdir, "rev-list", "--parents", "-n1", merged])).split(
      " ",
    );
    expect(parents[1]).toBe(base);
    expect(await log(`${base}..${parents[2]}`, "%s|%cn")).toEqual(["append to a|Merger", "add c|Merger"]);
    expect(await isAncestor(repo, base, parents[2] as string)).toBe(true);
  });

  it("fast-forwards only when the base is in the head's history", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    await expect(
      mergeIntoBranch(repo, {
        style: "fast-forward-only",
        baseBranch: "main",
        baseSha: base,
        headSha: head,
        message: "",
        doer,
      }),
    ).rejects.toBeInstanceOf(GitMergeRefusedError);
    expect(await rev("main")).toBe(base);
    const newHead = await updateBranchFromBase(repo, {
      style: "rebase",
      headBranch: "head",
      headSha: head,
      baseSha: base,
      message: "",
      doer,
    });
    const merged = await mergeIntoBranch(repo, {
      style: "fast-forward-only",
      baseBranch: "main",
      baseSha: base,
      headSha: newHead,
      message: "",
      doer,
    });
    expect(merged).toBe(newHead);
    expect(await rev("main")).toBe(newHead);
  });

  it("reports conflicting files and leaves both branches untouched", async () => {
    await commit("main", { "a.txt": "one\nTWO\nthree\nfive\n" }, "conflicting change");
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    expect(await mergeTree(repo, base, head)).toEqual({ clean: false, conflicts: ["a.txt"] });
    for (const style of ["merge", "squash", "rebase", "rebase-merge"] as const) {
      const failure = mergeIntoBranch(repo, {
        style,
        baseBranch: "main",
        baseSha: base,
        headSha: head,
        message: "m",
        doer,
      });
      await expect(failure).rejects.toBeInstanceOf(GitMergeConflictError);
      await expect(failure).rejects.toMatchObject({ files: ["a.txt"] });
    }
    expect(await rev("main")).toBe(base);
    expect(await rev("head")).toBe(head);
  });

  it("refuses to move a base that changed since it was read", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const moved = await commit("main", { "d.txt": "dee\n" }, "pushed meanwhile");
    await expect(
      mergeIntoBranch(repo, {
        style: "merge",
        baseBranch: "main",
        baseSha: base,
        headSha: head,
        message: "m",
        doer,
      }),
    ).rejects.toBeInstanceOf(GitConflictError);
    expect(await rev("main")).toBe(moved);
  });

  it("skips a change the base already has, as git rebase does", async () => {
    await commit("main", { "c.txt": "see\n" }, "same change as add c");
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    await mergeIntoBranch(repo, {
      style: "rebase",
      baseBranch: "main",
      baseSha: base,
      headSha: head,
      message: "",
      doer,
    });
    expect(await log(`${base}..main`)).toEqual(["append to a"]);
  });

  it("rebases a history that holds a root commit, and keeps commits that were empty to begin with", async () => {
    // An unrelated root merged into the head, then an empty commit on top.
    await cli.ok(["checkout", "--quiet", "--orphan", "orphan"], work);
    await cli.ok(["rm", "-rfq", "."], work);
    await commit("orphan", { "orphan.txt": "root\n" }, "Orphan root");
    await cli.ok(["checkout", "--quiet", "head"], work);
    await cli.ok(["merge", "--quiet", "--allow-unrelated-histories", "-m", "Join orphan", "orphan"], work);
    await cli.ok(["commit", "--quiet", "--allow-empty", "-m", "Nothing changes"], work);
    await cli.ok(["push", "--quiet", "--force", repo.gitdir, "head:head"], work);
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    await mergeIntoBranch(repo, {
      style: "rebase",
      baseBranch: "main",
      baseSha: base,
      headSha: head,
      message: "",
      doer,
    });
    expect(await log(`${base}..main`)).toEqual(["Nothing changes", "Orphan root", "append to a", "add c"]);
    expect(await cli.ok(["--git-dir", repo.gitdir, "show", "main:orphan.txt"])).toBe("root");
  });

  it("leaves the head as it was when the update's check refuses the new head", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const seen: string[] = [];
    const refused = updateBranchFromBase(repo, {
      style: "merge",
      headBranch: "head",
      headSha: head,
      baseSha: base,
      message: "Merge branch 'main' into head",
      doer,
      check: async (oldSha, newSha) => {
        seen.push(oldSha, newSha);
        return "branch head is protected from unverified commit";
      },
    });
    await expect(refused).rejects.toBeInstanceOf(GitMergeRefusedError);
    expect(seen[0]).toBe(head);
    expect(seen[1]).not.toBe(head);
    expect(await rev("head")).toBe(head);
  });

  it("updates the head from the base with a merge commit or a rebase", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    expect(await aheadBehind(repo, base, head)).toEqual({ ahead: 2, behind: 1 });
    const merged = await updateBranchFromBase(repo, {
      style: "merge",
      headBranch: "head",
      headSha: head,
      baseSha: base,
      message: "Merge branch 'main' into head",
      doer,
    });
    expect(await cli.ok(["--git-dir", repo.gitdir, "rev-list", "--parents", "-n1", "head"])).toBe(
      `${merged} ${head} ${base}`,
    );
    expect(await aheadBehind(repo, base, merged)).toEqual({ ahead: 3, behind: 0 });
    expect(await mergeBase(repo, base, merged)).toBe(base);
  });

  it("lists changed files with line counts, renames included", async () => {
    await commit(
      "head",
      { "b.txt": null, "renamed.txt": "bee\n", "bin.dat": "\u0000\u0001binary" },
      "rename b",
    );
    const base = await mergeBase(repo, await rev("main"), await rev("head"));
    const files = await changedFiles(repo, base as string, await rev("head"));
    expect(files).toEqual([
      { filename: "a.txt", status: "modified", additions: 1, deletions: 0, binary: false },
      { filename: "bin.dat", status: "added", additions: 0, deletions: 0, binary: true },
      { filename: "c.txt", status: "added", additions: 1, deletions: 0, binary: false },
      {
        filename: "renamed.txt",
        previousFilename: "b.txt",
        status: "renamed",
        additions: 0,
        deletions: 0,
        binary: false,
      },
    ]);
    const page = await rangeCommits(repo, base as string, await rev("head"), { skip: 1, limit: 1 });
    expect(page.total).toBe(3);
    expect(
      await rangeCommits(repo, base as string, await rev("head"), { skip: 5_000_000_000, limit: 50 }),
    ).toEqual({
      commits: [],
      total: 3,
    });
    expect(page.commits.map((c) => c.message.trim())).toEqual(["append to a"]);
  });

  it("streams the diff and the patch exactly as git prints them", async () => {
    const [base, head] = await Promise.all([rev("main"), rev("head")]);
    const mb = (await mergeBase(repo, base, head)) as string;
    const read = async (stream: ReadableStream<Uint8Array>) =>
      Buffer.from(await new Response(stream).arrayBuffer()).toString();
    const raw = async (args: string[]) => (await cli.run(["--git-dir", repo.gitdir, ...args])).stdout;
    expect(await read(diffStream(repo, mb, head))).toBe(await raw(["diff", "-p", mb, head]));
    const patch = await read(diffStream(repo, mb, head, { patch: true }));
    expect(patch).toBe(await raw(["format-patch", "--binary", "--stdout", `${mb}...${head}`]));
    expect(patch.match(/^Subject: /gm)).toHaveLength(2);
  });
});
