import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Creates a PGlite data directory and closes it; runs in a node process of its own. */
const INITDB = `
import { PGlite } from "@electric-sql/pglite";
const db = await PGlite.create({ dataDir: process.argv[1] });
await db.close();
`;

/**
 * Creates an empty PGlite data directory at `dataDir` (absolute) in a short-lived child process,
 * when it holds no database yet. PGlite runs initdb in a second PGlite instance of its own, and
 * the process that ran it keeps over 500 MiB resident afterwards (measured in bench/memory):
 * the instance's WebAssembly memories are not released after `close()`. In a child, that memory
 * goes back to the system when it exits, and the server opens an existing directory.
 */
export async function initPGliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, "PG_VERSION"))) return;
  // The bare specifier resolves from this package's directory, where its node_modules are.
  const cwd = dirname(fileURLToPath(import.meta.url));
  await run(process.execPath, ["--input-type=module", "-e", INITDB, dataDir], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
  });
}
