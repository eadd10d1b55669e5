/**
 * A test-only fault: the named point at which the process kills itself with SIGKILL, as a crash
 * or `kill -9` would, so end-to-end tests can prove that the ref journal finishes or drops what a
 * crash interrupted. The server sets it only under `NODE_ENV=test` (apps/server/src/env.ts).
 */
let armed: string | undefined;

/** Arms (or, with undefined, disarms) the crash point. */
export function setCrashPoint(point: string | undefined): void {
  armed = point;
}

/** Kills the process here when this is the armed point; does nothing otherwise. */
export function crashPoint(point: string): void {
  if (armed !== undefined && armed === point) process.kill(process.pid, "SIGKILL");
}
