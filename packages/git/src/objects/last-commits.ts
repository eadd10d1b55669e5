import { spawn } from "node:child_process";
import type { GitRepository } from "../disk/git-repository.js";
import { isolatedEnv } from "../util/git-env.js";
import { runGit } from "../util/run-git.js";
import { gitProcesses } from "../util/work-limits.js";

/** How many recent commits the shared walk looks at before each remaining entry is asked alone. */
const SHARED_WALK = 300;
/** How many single-entry queries run at once. */
const PARALLEL = 4;
/** Answers remembered (commit, path → last commit); commits never change, so neither do they. */
const REMEMBERED = 20_000;
const remembered = new Map<string, string>();

function remember(key: string, sha: string): void {
  remembered.delete(key);
  remembered.set(key, sha);
  if (remembered.size > REMEMBERED) {
    const oldest = remembered.keys().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
}

/**
 * The last commit that changed each of `names` (entries of the directory `dir`, "" for the root)
 * in the history of `commitSha`. One native `git log --name-only` walk over the recent history
 * finds most entries (it stops as soon as every entry has its commit); each entry left after
 * {@link SHARED_WALK} commits is asked alone (`git log -1 -- <path>`), which the commit-graph's
 * changed-path Bloom filters answer without diffing every commit. A commit's history never
 * changes, so answers are remembered (the last {@link REMEMBERED}). Entries never changed in that
 * history (none, in practice) are missing from the result.
 */
export function lastCommitsOf(
  repo: Pick<GitRepository, "gitdir">,
  commitSha: string,
  dir: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  // Requests for the same listing at the same time (a popular page) share one computation.
  const key = `${repo.gitdir}\u0000${commitSha}\u0000${dir}\u0000${names.join("\u0000")}`;
  const running = inflight.get(key);
  if (running) return running;
  const computed = compute(repo, commitSha, dir, names).finally(() => inflight.delete(key));
  inflight.set(key, computed);
  return computed;
}

const inflight = new Map<string, Promise<Map<string, string>>>();

async function compute(
  repo: Pick<GitRepository, "gitdir">,
  commitSha: string,
  dir: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const keyOf = (name: string) => `${repo.gitdir}\u0000${commitSha}\u0000${dir ? `${dir}/${name}` : name}`;
  const found = new Map<string, string>();
  for (const name of names) {
    const known = remembered.get(keyOf(name));
    if (known) found.set(name, known);
  }
  const unknown = names.filter((name) => !found.has(name));
  if (unknown.length > 1) {
    for (const [name, sha] of await walkRecent(repo, commitSha, dir, unknown)) found.set(name, sha);
  }
  const left = unknown.filter((name) => !found.has(name));
  for (let i = 0; i < left.length; i += PARALLEL) {
    const batch = left.slice(i, i + PARALLEL);
    const shas = await Promise.all(
      batch.map((name) => lastCommitOf(repo, commitSha, dir ? `${dir}/${name}` : name)),
    );
    batch.forEach((name, index) => {
      const sha = shas[index];
      if (sha) found.set(name, sha);
    });
  }
  for (const name of unknown) {
    const sha = found.get(name);
    if (sha) remember(keyOf(name), sha);
  }
  return found;
}

/** The last commit that changed `path`, from `git log -1`. */
async function lastCommitOf(
  repo: Pick<GitRepository, "gitdir">,
  commitSha: string,
  path: string,
): Promise<string | undefined> {
  const result = await runGit([
    "--literal-pathspecs",
    "--git-dir",
    repo.gitdir,
    "log",
    "-1",
    "--format=%H",
    commitSha,
    "--",
    path,
  ]);
  const sha = result.stdout.toString("utf8").trim();
  return result.code === 0 && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined;
}

async function walkRecent(
  repo: Pick<GitRepository, "gitdir">,
  commitSha: string,
  dir: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (names.length === 0) return found;
  if (!/^[0-9a-f]{40}$/.test(commitSha)) throw new Error(`not a commit id: ${commitSha}`);
  return gitProcesses.run(repo.gitdir, () => walkInProcess(repo, commitSha, dir, names, found));
}

function walkInProcess(
  repo: Pick<GitRepository, "gitdir">,
  commitSha: string,
  dir: string,
  names: readonly string[],
  found: Map<string, string>,
): Promise<Map<string, string>> {
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
        `--max-count=${SHARED_WALK}`,
        "--format=%x01%H",
        "-z",
        "--name-only",
        "--no-renames",
        commitSha,
        ...(dir ? ["--", dir] : []),
      ],
      { env: isolatedEnv(), stdio: ["ignore", "pipe", "ignore"] },
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
