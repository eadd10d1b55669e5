import { runGit } from "../util/run-git.js";
import type { IsoContext } from "./iso.js";
import { objectInfo } from "./object-cache.js";
import type { TreeEntry } from "./tree-entry.js";

/** A tree larger than this many bytes (about 2,000 entries) is read by git, not parsed in process. */
export const LARGE_TREE_BYTES = 64 * 1024;

/** Whether `tree` is too large to parse in process. */
export async function isLargeTree(ctx: IsoContext, tree: string): Promise<boolean> {
  return ((await objectInfo(ctx, tree))?.size ?? 0) > LARGE_TREE_BYTES;
}

function typeOf(word: string): TreeEntry["type"] | undefined {
  return word === "blob" || word === "tree" || word === "commit" ? word : undefined;
}

/** One `ls-tree -z` record (`<mode> <type> <oid>\t<path>`); undefined for one Kiln does not serve. */
export function parseRecord(record: string): (TreeEntry & { readonly path: string }) | undefined {
  const tab = record.indexOf("\t");
  if (tab < 0) return undefined;
  const [mode, word, sha] = record.slice(0, tab).split(" ");
  const type = typeOf(word ?? "");
  const path = record.slice(tab + 1);
  const name = path.slice(path.lastIndexOf("/") + 1);
  // Names parseTree refuses are never served (they could name no file of a checkout).
  if (!mode || !type || !sha || name === "" || name === "." || name === ".." || name.includes("\\"))
    return undefined;
  return { name, mode, type, sha, path };
}

/** The entry named `name` of the tree `tree`, looked up by git; undefined when there is none. */
export async function lookupLargeTree(
  ctx: IsoContext,
  tree: string,
  name: string,
): Promise<TreeEntry | undefined> {
  const result = await runGit([
    "--literal-pathspecs",
    "--git-dir",
    ctx.gitdir,
    "ls-tree",
    "-z",
    tree,
    "--",
    name,
  ]);
  if (result.code !== 0) return undefined;
  for (const record of result.stdout.toString("utf8").split("\u0000")) {
    const entry = parseRecord(record);
    if (entry && entry.path === name)
      return { name: entry.name, mode: entry.mode, type: entry.type, sha: entry.sha };
  }
  return undefined;
}
