import { spawn } from "node:child_process";
import { isolatedEnv } from "../util/git-env.js";
import { gitProcesses } from "../util/work-limits.js";
import type { IsoContext } from "./iso.js";
import { isLargeTree, parseRecord } from "./large-tree.js";
import { readTreeEntries } from "./tree-entries.js";
import type { TreeEntry } from "./tree-entry.js";

/**
 * Trees too large to parse in process. A directory of 200,000 files is a 7 MiB tree object:
 * parsing it on the event loop for every request stalled the server for most of a second. Such
 * a tree is read by `git ls-tree` instead: one entry is looked up by name in git, and a listing
 * decodes only the window of entries it answers (the rest are counted, never decoded).
 */

/** A window of a tree listing and how many entries the whole listing has. */
export interface TreeWindow {
  /** The entries at positions `[start, start + count)`, with their paths below the tree. */
  readonly entries: readonly (TreeEntry & { readonly path: string })[];
  /** Every entry of the listing, or `start + count + 1` when counting stopped there. */
  readonly total: number;
}

/**
 * The entries `[start, start + count)` of `git ls-tree -z` of `tree` (recursively with `-r -t`:
 * trees before their contents, as a depth-first walk lists them), in git's order. Records outside
 * the window are counted by their NUL terminators and never decoded; with `countAll: false` git is
 * stopped once the window is full and one more entry is seen. Holds a git process slot meanwhile.
 */
export function windowTree(
  ctx: IsoContext,
  tree: string,
  options: {
    readonly recursive?: boolean;
    readonly start: number;
    readonly count: number;
    readonly countAll: boolean;
  },
): Promise<TreeWindow> {
  if (!/^[0-9a-f]{40}$/.test(tree)) throw new Error(`not a tree id: ${tree}`);
  const args = ["--git-dir", ctx.gitdir, "ls-tree", "-z", ...(options.recursive ? ["-r", "-t"] : []), tree];
  return gitProcesses.run(ctx.gitdir, () => collectWindow(args, options));
}

function collectWindow(
  args: readonly string[],
  options: { readonly start: number; readonly count: number; readonly countAll: boolean },
): Promise<TreeWindow> {
  const end = options.start + options.count;
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { env: isolatedEnv(), stdio: ["ignore", "pipe", "ignore"] });
    const entries: (TreeEntry & { path: string })[] = [];
    let index = 0;
    let carry: Buffer | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      child.kill();
      resolve({ entries, total: index });
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (done) return;
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      let from = 0;
      for (let nul = data.indexOf(0, from); nul >= 0; nul = data.indexOf(0, from)) {
        if (index >= options.start && index < end) {
          const entry = parseRecord(data.toString("utf8", from, nul));
          if (entry) entries.push(entry);
        }
        index++;
        from = nul + 1;
        if (!options.countAll && index > end) return finish();
      }
      carry = from < data.length ? data.subarray(from) : undefined;
    });
    child.on("error", (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
    child.on("close", finish);
  });
}

/**
 * The entries `[start, start + count)` of `tree`, in git's order, and how many it has: a small
 * tree from its parsed (and cached) entries, a large one from {@link windowTree}, decoding only
 * the window.
 */
export async function treeEntriesWindow(
  ctx: IsoContext,
  tree: string,
  start: number,
  count: number,
): Promise<{ readonly entries: readonly TreeEntry[]; readonly total: number }> {
  if (await isLargeTree(ctx, tree)) return windowTree(ctx, tree, { start, count, countAll: true });
  const all = await readTreeEntries(ctx, tree);
  return { entries: all.slice(start, start + count), total: all.length };
}
