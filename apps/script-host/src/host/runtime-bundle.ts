import { existsSync, readFileSync } from "node:fs";
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

/** dist/runtime/, with a trailing slash: beside the bundled dist/kiln-run.cjs, one level up from dist/host/. */
export function runtimeDir(): string {
  if (dir) return dir;
  dir = [new URL("./runtime/", import.meta.url), new URL("../runtime/", import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((candidate) => existsSync(`${candidate}manifest.json`));
  if (!dir) throw new Error("kiln-run: the runtime bundle is missing; run the build first");
  return dir;
}
let dir: string | undefined;

/**
 * Reads the runtime bundle built beside this file (once per process). The source map (370 KB)
 * is read only when asked for: a run sends it to the runtime only with --debug.
 */
export function loadRuntimeBundle(): RuntimeBundle {
  if (loaded) return loaded;
  const dir = runtimeDir();
  const file = (name: string) => readFileSync(`${dir}${name}`, "utf8");
  const manifest = JSON.parse(file("manifest.json")) as { id: string };
  let map: string | undefined;
  loaded = {
    js: file("main.js"),
    get map() {
      map ??= file("main.js.map");
      return map;
    },
    id: manifest.id,
  };
  return loaded;
}
