import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The runtime that runs inside the isolate, built by scripts/build-runtime.mjs into dist/runtime/. */
export interface RuntimeBundle {
  /** start_main_js: the bundle's code. */
  readonly js: string;
  /** start_main_map: its source map. */
  readonly map: string;
  /** A hash of the bundle, naming the compiler version in the compile cache. */
  readonly id: string;
}

let loaded: RuntimeBundle | undefined;

/** Reads the runtime bundle built beside this file (once per process). */
export function loadRuntimeBundle(): RuntimeBundle {
  if (loaded) return loaded;
  const file = (name: string) =>
    readFileSync(fileURLToPath(new URL(`../runtime/${name}`, import.meta.url)), "utf8");
  const manifest = JSON.parse(file("manifest.json")) as { id: string };
  loaded = { js: file("main.js"), map: file("main.js.map"), id: manifest.id };
  return loaded;
}
