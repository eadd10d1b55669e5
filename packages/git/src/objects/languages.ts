import { spawn } from "node:child_process";
import type { GitRepository } from "../disk/git-repository.js";
import { isolatedEnv } from "../util/git-env.js";
import { gitProcesses } from "../util/work-limits.js";
import { type IsoContext, isoContext } from "./iso.js";
import { LANGUAGE_BY_EXTENSION, LANGUAGE_BY_FILENAME } from "./language-table.js";
import { isExcludedFromLanguageStats } from "./linguist-filters.js";
import { readCommitCached } from "./object-cache.js";
import { objectKeyPrefix } from "./repo-state.js";
import { headBranch, refValue } from "./resolve.js";

/** The language linguist would name for a file path, counting only programming and markup kinds. */
export function languageOf(path: string): string | undefined {
  const name = path.split("/").pop() ?? path;
  const entry =
    LANGUAGE_BY_FILENAME.get(name) ??
    (name.includes(".")
      ? LANGUAGE_BY_EXTENSION.get(name.slice(name.lastIndexOf(".") + 1).toLowerCase())
      : undefined);
  if (!entry) return undefined;
  const [language, kind] = entry;
  return kind === "programming" || kind === "markup" ? language : undefined;
}

/** Answers kept by repository incarnation and commit (a commit's tree never changes). */
const MAX_REMEMBERED = 256;
const remembered = new Map<string, Promise<Record<string, number>>>();

/**
 * Adds up blob sizes per language in `tree` from `git ls-tree -r -l -z` (git walks the tree and
 * reads the sizes), one record at a time as git writes them: the work is in git, and the event
 * loop only decodes records, in chunks, however many files the tree holds.
 */
function tally(ctx: IsoContext, tree: string): Promise<Map<string, number>> {
  if (!/^[0-9a-f]{40}$/.test(tree)) throw new Error(`not a tree id: ${tree}`);
  const args = ["--git-dir", ctx.gitdir, "ls-tree", "-r", "-l", "-z", tree];
  return gitProcesses.run(
    ctx.gitdir,
    () =>
      new Promise<Map<string, number>>((resolve, reject) => {
        const sizes = new Map<string, number>();
        const child = spawn("git", args, { env: isolatedEnv(), stdio: ["ignore", "pipe", "ignore"] });
        let carry: Buffer | undefined;
        child.stdout.on("data", (chunk: Buffer) => {
          const data = carry ? Buffer.concat([carry, chunk]) : chunk;
          let from = 0;
          for (let nul = data.indexOf(0, from); nul >= 0; nul = data.indexOf(0, from)) {
            count(data.toString("utf8", from, nul), sizes);
            from = nul + 1;
          }
          carry = from < data.length ? data.subarray(from) : undefined;
        });
        child.on("error", reject);
        child.on("close", (code) =>
          code === 0 ? resolve(sizes) : reject(new Error(`git ls-tree failed (${code})`)),
        );
      }),
  );
}

/** Counts one `<mode> <type> <oid> <size>\t<path>` record: a blob (not a symlink) in a language, not excluded. */
function count(record: string, sizes: Map<string, number>): void {
  const tab = record.indexOf("\t");
  if (tab < 0) return;
  const [mode, type, , size] = record.slice(0, tab).trim().split(/ +/);
  if (type !== "blob" || mode === "120000") return;
  const path = record.slice(tab + 1);
  if (isExcludedFromLanguageStats(path)) return;
  const language = languageOf(path);
  if (language) sizes.set(language, (sizes.get(language) ?? 0) + Number(size ?? 0));
}

/**
 * Bytes per language on the default branch (Forgejo's `/languages`), by extension and well-known
 * file names, skipping vendored, generated and documentation paths. Empty for an empty repository.
 * Computed once per head commit (git walks the tree), then remembered.
 */
export async function languageStats(repo: GitRepository): Promise<Record<string, number>> {
  const ctx = isoContext(repo);
  const head = await refValue(ctx, `refs/heads/${await headBranch(ctx)}`);
  if (!head) return {};
  const key = objectKeyPrefix(ctx.gitdir) + head;
  const known = remembered.get(key);
  if (known) return known;
  const computing = (async () => {
    const { commit } = await readCommitCached(ctx, head);
    const sizes = await tally(ctx, commit.tree);
    return Object.fromEntries([...sizes].sort((a, b) => b[1] - a[1]));
  })();
  remembered.set(key, computing);
  computing.catch(() => remembered.delete(key));
  if (remembered.size > MAX_REMEMBERED) {
    const oldest = remembered.keys().next().value;
    if (oldest !== undefined) remembered.delete(oldest);
  }
  return computing;
}
