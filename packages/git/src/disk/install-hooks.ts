import { randomUUID } from "node:crypto";
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hookScripts } from "./hook-scripts.js";

/**
 * Writes Kiln's hooks into a bare repository unless they are there already with the same
 * content; each file is replaced atomically. Resolves with whether anything changed.
 */
export async function installHooks(gitdir: string): Promise<boolean> {
  const dir = join(gitdir, "hooks");
  await mkdir(dir, { recursive: true });
  let changed = false;
  for (const [name, content] of Object.entries(hookScripts())) {
    const path = join(dir, name);
    const current = await readFile(path, "utf8").catch(() => undefined);
    if (current === content) continue;
    const temp = join(dir, `.${name}.${randomUUID()}`);
    await writeFile(temp, content, { mode: 0o755 });
    await chmod(temp, 0o755);
    await rename(temp, path);
    changed = true;
  }
  return changed;
}
