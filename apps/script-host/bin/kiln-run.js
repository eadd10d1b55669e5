#!/usr/bin/env -S node --no-node-snapshot
// kiln-run: see `kiln-run --help`. CommonJS (bin/package.json), like the bundle it loads: the ESM
// loader costs a few milliseconds of every start. isolated-vm needs Node's startup snapshot off
// on Node 20+; when started without --no-node-snapshot (e.g. through a shim that ignores the
// shebang), re-run with it.
"use strict";

const flag = "--no-node-snapshot";
if (!process.execArgv.includes(flag) && !(process.env.NODE_OPTIONS ?? "").includes(flag)) {
  const { spawnSync } = require("node:child_process");
  const child = spawnSync(
    process.execPath,
    [flag, ...process.execArgv, __filename, ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  process.exit(child.status ?? 1);
}

const { main } = require("./load-bundle.js").loadBundle();
// Let the event loop drain instead of calling process.exit(): isolated-vm frees the isolate on
// its own thread and keeps the loop alive until it is done; exiting earlier can crash it. The
// unref'd timer only matters if something else were to hold the loop open.
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  setTimeout(() => process.exit(), 5000).unref();
});
