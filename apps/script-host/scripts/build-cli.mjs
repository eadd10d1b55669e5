#!/usr/bin/env node
// Bundles the host side of kiln-run (dist/cli/main.js, compiled by tsc, with @kiln/protocol) into
// dist/kiln-run.cjs, the one file bin/kiln-run.js loads: loading one module instead of some
// eighty ESM files saves tens of milliseconds of every start-up, and a CommonJS file skips the
// ESM loader's resolution and translation (a few more). isolated-vm (either build, chosen at run
// time by src/host/ivm.ts) and @swc/core are native addons and stay external (SWC is loaded only
// on a compile-cache miss).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// The sources find files beside themselves through import.meta.url; in CommonJS that is the
// bundle's own file URL.
const importMetaUrl = {
  define: { "import.meta.url": "__kiln_import_meta_url" },
  banner: { js: 'const __kiln_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
};
await build({
  entryPoints: [join(root, "dist", "cli", "main.js")],
  outfile: join(root, "dist", "kiln-run.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["isolated-vm-5", "isolated-vm-6", "@swc/core"],
  sourcemap: true,
  logLevel: "warning",
  ...importMetaUrl,
});
// The compiler process (SWC runs there for modules too large to compile in the host; see
// compiler-process.ts).
await build({
  entryPoints: [join(root, "dist", "host", "modules", "compile-worker.js")],
  outfile: join(root, "dist", "compile-worker.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["@swc/core"],
  logLevel: "warning",
  ...importMetaUrl,
});
