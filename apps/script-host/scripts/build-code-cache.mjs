#!/usr/bin/env node
// Builds V8 code cache data for the runtime bundle into dist/runtime/code-cache-<key>.bin (the
// key names this Node's V8 and the bundle; a run under another Node makes its own data in the
// cache directory instead). Run with --no-node-snapshot, as kiln-run itself is.
import { readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ivm from "../dist/host/ivm.js";
import { loadRuntimeBundle } from "../dist/host/runtime-bundle.js";
import { builtCodeCachePath, writeCodeCacheFile } from "../dist/host/runtime-code-cache.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "dist", "runtime");
for (const old of await readdir(dir)) if (old.startsWith("code-cache-")) await rm(join(dir, old));
const bundle = loadRuntimeBundle();
const isolate = new ivm.Isolate({ memoryLimit: 64 });
const script = isolate.compileScriptSync(bundle.js, { filename: "kiln:runtime.js", produceCachedData: true });
const bytes = new Uint8Array(script.cachedData.copy());
writeCodeCacheFile(builtCodeCachePath(bundle), bytes);
isolate.dispose();
console.log(`runtime code cache: ${(bytes.byteLength / 1024).toFixed(0)} KiB`);
