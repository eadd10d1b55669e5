import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

let written = 0;

/**
 * A temporary file beside `path`, created exclusively (`wx`: never an existing file, nor a link
 * someone else placed there). The name need not be secret, only unused; a taken name is tried
 * again with another. (Not node:crypto's randomBytes: loading it costs 5–8 ms of a run.)
 */
function temporaryName(path: string): string {
  return `${path}.${process.pid}.${(++written).toString(36)}${Math.random().toString(36).slice(2, 10)}.tmp`;
}

const isTaken = (error: unknown) => (error as NodeJS.ErrnoException).code === "EEXIST";

/**
 * Writes a file so that readers see either the old content or the whole new content, never a
 * partial write: write a temporary file beside it, then rename it over the target.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const temporary = temporaryName(path);
    try {
      await writeFile(temporary, content, { flag: "wx" });
    } catch (error) {
      if (isTaken(error) && attempt < 5) continue;
      // A write that failed part way leaves its own file behind; a taken name is someone else's.
      if (!isTaken(error)) await rm(temporary, { force: true });
      throw error;
    }
    try {
      await rename(temporary, path);
      return;
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

/** {@link writeFileAtomic}, synchronously (for start-up, before the event loop matters). */
export function writeFileAtomicSync(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const temporary = temporaryName(path);
    try {
      writeFileSync(temporary, content, { flag: "wx" });
    } catch (error) {
      if (isTaken(error) && attempt < 5) continue;
      if (!isTaken(error)) rmSync(temporary, { force: true });
      throw error;
    }
    try {
      renameSync(temporary, path);
      return;
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}
