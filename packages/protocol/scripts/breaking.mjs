#!/usr/bin/env node
// `pnpm breaking`: runs `buf breaking` for proto/ against the main branch of this git repository
// (DECISIONS.md item 13). Works in a worktree (uses the common git dir) and in a fresh clone (falls
// back to origin/main). Skips with a message when main has no .proto file yet, so the first
// change that introduces the protocol is not reported as breaking everything.
import { execFileSync, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(packageDir, "..", "..");
const git = (...args) =>
  execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
const tryGit = (...args) => {
  try {
    return git(...args);
  } catch {
    return "";
  }
};

const ref = ["main", "origin/main"].find((name) => tryGit("rev-parse", "--verify", "-q", `${name}^{commit}`));
if (!ref) {
  console.log("buf breaking: skipped, this repository has no main branch to compare against");
  process.exit(0);
}
const protos = tryGit("ls-tree", "-r", "--name-only", ref, "--", "proto")
  .split("\n")
  .filter((path) => path.endsWith(".proto"));
if (protos.length === 0) {
  console.log(`buf breaking: skipped, ${ref} has no .proto files under proto/ yet`);
  process.exit(0);
}
const commit = git("rev-parse", `${ref}^{commit}`);
const gitDir = git("rev-parse", "--path-format=absolute", "--git-common-dir");
const against = `${gitDir}#ref=${commit}`;
console.log(`buf breaking: comparing proto/ against ${ref} (${commit.slice(0, 12)})`);
const result = spawnSync(
  join(packageDir, "node_modules", ".bin", "buf"),
  ["breaking", repoRoot, "--against", against],
  {
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
