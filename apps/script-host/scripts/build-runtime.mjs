#!/usr/bin/env node
// Builds the runtime that runs inside the isolate (runtime/main.ts and what it imports: the
// protocol codec, whatwg-url, trace-mapping; modules arrive compiled by the host) into one script, dist/runtime/main.js, with
// its source map main.js.map; the host sends both in START (start_main_js, start_main_map).
// manifest.json holds a hash of the bundle: the compile cache keeps output per compiler.
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "runtime");
await mkdir(outdir, { recursive: true });
await build({
  entryPoints: [join(root, "runtime", "main.ts")],
  outfile: join(outdir, "main.js"),
  bundle: true,
  format: "iife",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  minify: true,
  charset: "ascii",
  legalComments: "none",
  sourcemap: "external",
  sourcesContent: false,
  sourceRoot: "",
  logLevel: "warning",
  // Node built-ins do not exist in the isolate; anything that still names one must fail the build.
  external: [],
});
const js = await readFile(join(outdir, "main.js"));
const id = createHash("sha256").update(js).digest("hex").slice(0, 16);
await writeFile(join(outdir, "manifest.json"), `${JSON.stringify({ id, bytes: js.byteLength })}\n`);
console.log(`runtime bundle: ${(js.byteLength / 1024).toFixed(0)} KiB, id ${id}`);
