// The floor under Kiln's PGlite figure: an empty PGlite data directory opened with Kiln's options
// (openPGlitePool, the same call `kiln web` makes) in a bare node process, after a few hundred
// small queries. The directory is initialised by a child process first, because `kiln web` also
// opens a directory that an earlier `kiln` command created. Prints JSON (MiB) for run.mjs.
//   node bench/memory/floor.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openPGlitePool } from "../../packages/storage/dist/index.js";

function memory() {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") / 1024, anon: kib("RssAnon") / 1024, file: kib("RssFile") / 1024 };
}

if (process.argv[2] === "init") {
  const pool = await openPGlitePool(process.argv[3]);
  await pool.end();
} else {
  const bare = memory();
  const dir = mkdtempSync(join(tmpdir(), "kiln-bench-memory-"));
  try {
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), "init", dir]);
    const pool = await openPGlitePool(dir);
    const started = memory();
    const client = await pool.connect();
    for (let i = 0; i < 200; i++) await client.query("select * from pg_class where relname = $1", [`t${i}`]);
    client.release();
    await new Promise((r) => setTimeout(r, 1000));
    const loaded = memory();
    await pool.end();
    console.log(JSON.stringify({ bare, started, loaded }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
