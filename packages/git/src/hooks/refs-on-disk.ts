import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * The largest `packed-refs` read in process: past it, the caller asks git, which reads it
 * without holding it whole in the server's memory.
 */
const MAX_PACKED_REFS_BYTES = 4 * 1024 * 1024;
/** The most loose ref files walked in process; past it, the caller asks git. */
const MAX_LOOSE_REFS = 10_000;

/**
 * How many refs the bare repository at `gitdir` holds, read from its files without starting git
 * (which blocks a large server's event loop for milliseconds per process): the loose refs under
 * `refs/` and the lines of `packed-refs`, a ref in both counted once, a `.lock` being written not
 * at all. Undefined when in doubt (another layout, a reftable repository whose `refs/heads` is a
 * file, an unreadable file, or more than the in-process bounds): the caller then asks git.
 */
export async function countRefsOnDisk(gitdir: string): Promise<number | undefined> {
  try {
    const names = new Set<string>();
    if (!(await walkLoose(join(gitdir, "refs"), "refs", names))) return undefined;
    const packedPath = join(gitdir, "packed-refs");
    const size = await stat(packedPath).then(
      (info) => info.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return 0;
        throw error;
      },
    );
    if (size > MAX_PACKED_REFS_BYTES) return undefined;
    if (size > 0) {
      for (const line of (await readFile(packedPath, "utf8")).split("\n")) {
        // `# pack-refs with: …` is the header, `^<sha>` the peeled value of the tag above it.
        if (line.length === 0 || line.startsWith("#") || line.startsWith("^")) continue;
        const space = line.indexOf(" ");
        if (space < 0) return undefined;
        names.add(line.slice(space + 1));
      }
    }
    return names.size;
  } catch {
    return undefined;
  }
}

/** Adds the loose refs below `dir` (named `prefix/…`); false past {@link MAX_LOOSE_REFS} or on a non-directory `refs`. */
async function walkLoose(dir: string, prefix: string, names: Set<string>): Promise<boolean> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const name = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!(await walkLoose(join(dir, entry.name), name, names))) return false;
    } else if (entry.isFile()) {
      if (entry.name.endsWith(".lock")) continue;
      names.add(name);
      if (names.size > MAX_LOOSE_REFS) return false;
    } else {
      // A symbolic link or another kind of file: git's rules for it are not repeated here.
      return false;
    }
  }
  return true;
}
