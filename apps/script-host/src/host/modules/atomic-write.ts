import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";

/** A random suffix for a temporary file (node:crypto is loaded on the first write, not at start-up). */
function randomSuffix(): string {
  const { randomBytes } = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return randomBytes(6).toString("hex");
}

/**
 * Writes a file so that readers see either the old content or the whole new content, never a
 * partial write: write a temporary file beside it, then rename it over the target.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomSuffix()}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** {@link writeFileAtomic}, synchronously (for start-up, before the event loop matters). */
export function writeFileAtomicSync(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomSuffix()}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
