import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Sums the sizes in bytes of the regular files under `dir` (symbolic links are not followed),
 * which is how Forgejo measures a repository's git_size.
 */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      total += await directorySize(path);
    } else if (entry.isFile()) {
      total += (await lstat(path)).size;
    }
  }
  return total;
}
