import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countRefsOnDisk } from "./refs-on-disk.js";

const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "a",
  GIT_AUTHOR_EMAIL: "a@example.com",
  GIT_COMMITTER_NAME: "a",
  GIT_COMMITTER_EMAIL: "a@example.com",
};
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function bare(): { gitdir: string; git: (...args: string[]) => string } {
  const gitdir = mkdtempSync(join(tmpdir(), "kiln-refs-"));
  dirs.push(gitdir);
  const git = (...args: string[]) =>
    execFileSync("git", ["--git-dir", gitdir, ...args], { env, encoding: "utf8" }).trim();
  git("init", "--bare", "-q");
  return { gitdir, git };
}

const gitCount = (git: (...args: string[]) => string) =>
  git("for-each-ref", "--format=x").split("\n").filter(Boolean).length;

describe("refs counted from the repository's files", () => {
  it("counts loose and packed refs as git does, a ref in both once, a lock not at all", async () => {
    const { gitdir, git } = bare();
    expect(await countRefsOnDisk(gitdir)).toBe(0);
    const tree = git("mktree");
    const commit = execFileSync("git", ["--git-dir", gitdir, "commit-tree", tree, "-m", "one"], {
      env,
      encoding: "utf8",
    }).trim();
    for (const ref of ["refs/heads/main", "refs/heads/a/b", "refs/tags/v1"]) git("update-ref", ref, commit);
    git("tag", "-a", "-m", "annotated", "v2", commit);
    git("pack-refs", "--all");
    // Loose again after packing: the packed line and the loose file are one ref.
    git("update-ref", "refs/heads/main", commit);
    git("update-ref", "refs/heads/loose", commit);
    writeFileSync(join(gitdir, "refs/heads/writing.lock"), `${commit}\n`);
    expect(gitCount(git)).toBe(5);
    expect(await countRefsOnDisk(gitdir)).toBe(5);
  });

  it("answers nothing for a layout it does not know, so the caller asks git", async () => {
    const { gitdir } = bare();
    rmSync(join(gitdir, "refs"), { recursive: true });
    writeFileSync(join(gitdir, "refs"), "not a directory\n");
    expect(await countRefsOnDisk(gitdir)).toBeUndefined();
  });
});
