import { spawn } from "node:child_process";
import type { GitRepository } from "../storage/git-repository.js";

/**
 * The last commit that changed each of `names` (entries of the directory `dir`, "" for the root)
 * in the history of `commitSha`, from one native `git log --name-only` walk that stops as soon as
 * every entry has its commit. Entries never changed in that history (none, in practice) are
 * missing from the result.
 */
export function lastCommitsOf(
  repo: Pick<GitRepository, "gitdir">,
  commitSha: string,
  dir: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (names.length === 0) return Promise.resolve(found);
  if (!/^[0-9a-f]{40}$/.test(commitSha)) throw new Error(`not a commit id: ${commitSha}`);
  const wanted = new Set(names);
  const prefix = dir ? `${dir}/` : "";
  return new Promise((resolve, reject) => {
    const child = spawn(
      "git",
      [
        "--literal-pathspecs",
        "--git-dir",
        repo.gitdir,
        "log",
        "--format=%x01%H",
        "-z",
        "--name-only",
        "--no-renames",
        commitSha,
        "--",
        dir || ".",
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    let pending = "";
    let sha = "";
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      child.kill();
      resolve(found);
    };
    const take = (field: string) => {
      if (field.startsWith("\u0001")) {
        sha = field.slice(1);
        return;
      }
      const path = field.startsWith("\n") ? field.slice(1) : field;
      if (!path.startsWith(prefix)) return;
      const name = path.slice(prefix.length).split("/")[0] ?? "";
      if (wanted.has(name) && !found.has(name)) {
        found.set(name, sha);
        if (found.size === wanted.size) finish();
      }
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (done) return;
      pending += chunk;
      const fields = pending.split("\u0000");
      pending = fields.pop() ?? "";
      for (const field of fields) {
        if (done) return;
        take(field);
      }
    });
    child.on("error", (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
    child.on("close", () => finish());
  });
}
