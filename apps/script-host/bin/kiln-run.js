#!/usr/bin/env -S node --no-node-snapshot
// kiln-run: see `kiln-run --help`. isolated-vm needs Node's startup snapshot off on Node 20+; when
// started without --no-node-snapshot (e.g. through a shim that ignores the shebang), re-run with it.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const flag = "--no-node-snapshot";
if (!process.execArgv.includes(flag) && !(process.env.NODE_OPTIONS ?? "").includes(flag)) {
  const child = spawnSync(
    process.execPath,
    [flag, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: "inherit",
    },
  );
  process.exit(child.status ?? 1);
}

const { main } = await import("../dist/kiln-run.js");
// Let the event loop drain instead of calling process.exit(): isolated-vm frees the isolate on
// its own thread and keeps the loop alive until it is done; exiting earlier can crash it. The
// unref'd timer only matters if something else were to hold the loop open.
process.exitCode = await main(process.argv.slice(2));
setTimeout(() => process.exit(), 5000).unref();
