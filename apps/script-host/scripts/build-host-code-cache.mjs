#!/usr/bin/env node
// Builds V8 code cache data for the host bundle (dist/kiln-run.cjs) into dist/kiln-run.cjs.cache:
// the bundle is compiled the way bin/load-bundle.js compiles it, runs a small TypeScript program
// that uses timers (so the functions a run needs are compiled), and the data V8 makes then is
// written after a line naming the bundle it belongs to. Run with --no-node-snapshot, as kiln-run
// itself is.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const { compileBundle, bundleStamp, cachePath } = require("../bin/load-bundle.js");

const work = mkdtempSync(join(tmpdir(), "kiln-host-code-cache-"));
try {
  const program = join(work, "warm-up.ts");
  writeFileSync(
    program,
    "const delay: number = 0;\nlet left = 3;\nfor (let i = 0; i < 3; i++) setTimeout(() => left--, delay);\n",
  );
  const { exports, script } = compileBundle(undefined);
  const code = await exports.main(["--cachedir", join(work, "cache"), program]);
  if (code !== 0) throw new Error(`the warm-up run exited with ${code}`);
  const data = script.createCachedData();
  writeFileSync(cachePath, Buffer.concat([Buffer.from(`${bundleStamp()}\n`, "latin1"), data]));
  console.log(`host code cache: ${(data.byteLength / 1024).toFixed(0)} KiB`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
