import { Worker } from "node:worker_threads";

/** What the watchdog needs to leave the work path usable when it has to kill the process. */
export interface WatchdogOptions {
  readonly afterMs: number;
  readonly lockFile: string;
  readonly socket: string;
}

// Runs on its own thread, so it fires even while the main thread is held by synchronous work
// (a huge JSON body being parsed, a query with millions of parameters): there, no timer and no
// signal handler of the main thread runs at all.
const source = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { afterMs, lockFile, socket, pid } = workerData;
setTimeout(() => {
  try {
    if (JSON.parse(fs.readFileSync(lockFile, "utf8")).pid === pid) fs.unlinkSync(lockFile);
  } catch {}
  try { fs.unlinkSync(socket); } catch {}
  const line = { level: 60, time: new Date().toISOString(), pid, msg: "the server did not stop " + afterMs + " ms after the signal: lock released, killing the process" };
  try { fs.writeSync(1, JSON.stringify(line) + "\\n"); } catch {}
  process.kill(pid, "SIGKILL");
}, afterMs);
`;

/**
 * The last resort of a shutdown: unless the process has exited `afterMs` after this call, a
 * separate thread releases the data lock (when it is still this process's), removes the
 * internal API's socket and kills the process. PGlite recovers from that like from `kill -9`.
 */
export function startWatchdog(options: WatchdogOptions): void {
  const worker = new Worker(source, { eval: true, workerData: { ...options, pid: process.pid } });
  worker.unref();
}
