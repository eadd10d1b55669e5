// Loads dist/kiln-run.cjs as require() would, but compiled with the V8 code cache data built
// beside it (scripts/build-host-code-cache.mjs): the data holds the functions a run compiles, so
// a start parses and compiles less of the bundle. The data is used only when the bundle is the
// one it was made from (same Node, size and modification time) and V8 accepts it; else the bundle
// is compiled as usual. CommonJS, like bin/kiln-run.js (bin/package.json).
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const bundlePath = path.join(__dirname, "..", "dist", "kiln-run.cjs");
const cachePath = `${bundlePath}.cache`;

/**
 * What the code cache data was made from: the Node (V8 rejects data of another V8 anyway, after
 * reading it), the bundle's size and modification time.
 */
function bundleStamp() {
  const info = fs.statSync(bundlePath);
  return `${process.version}:${info.size}:${info.mtimeMs}`;
}

/**
 * Compiles the bundle (with `cachedData` when given) and runs its top level; returns the module's
 * exports and the compiled script.
 */
function compileBundle(cachedData) {
  const vm = require("node:vm");
  const source = fs.readFileSync(bundlePath, "utf8");
  const script = new vm.Script(Module.wrap(source), { filename: bundlePath, cachedData });
  const bundle = new Module(bundlePath, module);
  bundle.filename = bundlePath;
  bundle.paths = Module._nodeModulePaths(path.dirname(bundlePath));
  const bundleRequire = Module.createRequire(bundlePath);
  script
    .runInThisContext()
    .call(bundle.exports, bundle.exports, bundleRequire, bundle, bundlePath, path.dirname(bundlePath));
  bundle.loaded = true;
  return { exports: bundle.exports, script };
}

/** The bundle's exports, compiled from the code cache data when it is valid for this bundle. */
function loadBundle() {
  let cachedData;
  try {
    const file = fs.readFileSync(cachePath);
    const newline = file.indexOf(10);
    if (newline > 0 && file.subarray(0, newline).toString("latin1") === bundleStamp()) {
      cachedData = file.subarray(newline + 1);
    }
  } catch {
    // No data (or no bundle, which require() below reports).
  }
  if (cachedData === undefined) return require(bundlePath);
  return compileBundle(cachedData).exports;
}

module.exports = { loadBundle, compileBundle, bundleStamp, cachePath };
