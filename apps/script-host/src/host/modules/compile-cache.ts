import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";

/**
 * Compiled output on disk (DECISIONS.md item 16): `<cachedir>/gen/<compiler>/<sha256(filename
 * NUL source)>.js`. The compiler directory is a hash of the runtime bundle, so output made by an
 * older compiler is never served to a newer one.
 */
export class CompileCache {
  readonly #dir: string;

  constructor(cacheDir: string, compilerId: string) {
    this.#dir = join(cacheDir, "gen", compilerId);
  }

  /** The cache file of a module, from its filename and source. */
  pathOf(filename: string, source: string): string {
    const key = createHash("sha256").update(filename).update("\0").update(source).digest("hex");
    return join(this.#dir, `${key}.js`);
  }

  /** The cached output for this filename and source, or undefined. */
  async get(filename: string, source: string): Promise<string | undefined> {
    try {
      return await readFile(this.pathOf(filename, source), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** Stores output for this filename and source, atomically. */
  async set(filename: string, source: string, output: string): Promise<void> {
    await writeFileAtomic(this.pathOf(filename, source), output);
  }
}
