#!/usr/bin/env node
// Bundles the host side of kiln-run (dist/cli/main.js, compiled by tsc, with @kiln/protocol and
// @bufbuild/protobuf) into dist/kiln-run.js, the one file bin/kiln-run.js loads: loading one
// module instead of some eighty ESM files saves tens of milliseconds of every start-up.
// isolated-vm and @swc/core are native addons and stay external (SWC is loaded only on a
// compile-cache miss).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [join(root, "dist", "cli", "main.js")],
  outfile: join(root, "dist", "kiln-run.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["isolated-vm", "@swc/core"],
  sourcemap: true,
  logLevel: "warning",
});
// The compiler process (SWC runs there, never in the host; see compiler-process.ts).
await build({
  entryPoints: [join(root, "dist", "host", "modules", "compile-worker.js")],
  outfile: join(root, "dist", "compile-worker.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["@swc/core"],
  logLevel: "warning",
});
