import type { GitRepository } from "../storage/git-repository.js";
import { type IsoContext, isoContext } from "./iso.js";
import { LANGUAGE_BY_EXTENSION, LANGUAGE_BY_FILENAME } from "./language-table.js";
import { isExcludedFromLanguageStats } from "./linguist-filters.js";
import { objectInfos, readCommitCached } from "./object-cache.js";
import { headBranch, refValue } from "./resolve.js";
import { readTreeEntries } from "./tree-entries.js";

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

/** Adds up blob sizes per language below `tree`; sizes come from the object headers, never the contents. */
async function tally(ctx: IsoContext, tree: string, prefix: string, sizes: Map<string, number>) {
  const counted: { readonly sha: string; readonly language: string }[] = [];
  for (const entry of await readTreeEntries(ctx, tree)) {
    const path = `${prefix}${entry.name}`;
    if (entry.type === "tree") {
      if (!isExcludedFromLanguageStats(`${path}/`)) await tally(ctx, entry.sha, `${path}/`, sizes);
      continue;
    }
    if (entry.type !== "blob" || entry.mode === "120000" || isExcludedFromLanguageStats(path)) continue;
    const language = languageOf(path);
    if (language) counted.push({ sha: entry.sha, language });
  }
  const headers = await objectInfos(
    ctx,
    counted.map(({ sha }) => sha),
  );
  counted.forEach(({ language }, index) => {
    sizes.set(language, (sizes.get(language) ?? 0) + (headers[index]?.size ?? 0));
  });
}

/**
 * Bytes per language on the default branch (Forgejo's `/languages`), by extension and well-known
 * file names, skipping vendored, generated and documentation paths. Empty for an empty repository.
 */
export async function languageStats(repo: GitRepository): Promise<Record<string, number>> {
  const ctx = isoContext(repo);
  const head = await refValue(ctx, `refs/heads/${await headBranch(ctx)}`);
  if (!head) return {};
  const { commit } = await readCommitCached(ctx, head);
  const sizes = new Map<string, number>();
  await tally(ctx, commit.tree, "", sizes);
  return Object.fromEntries([...sizes].sort((a, b) => b[1] - a[1]));
}
