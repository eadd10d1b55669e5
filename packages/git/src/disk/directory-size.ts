import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Sums the sizes in bytes of the regular files under `dir` (symbolic links are not followed),
 * which is how Forgejo measures a repository's git_size. Entries for which `skip` (given the
 * path's components below `dir`) answers true are left out with all they hold.
 */
export async function directorySize(
  dir: string,
  skip?: (relative: readonly string[]) => boolean,
  relative: readonly string[] = [],
): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const inner = [...relative, entry.name];
    if (skip?.(inner)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      total += await directorySize(path, skip, inner);
    } else if (entry.isFile()) {
      total += (await lstat(path)).size;
    }
  }
  return total;
}
