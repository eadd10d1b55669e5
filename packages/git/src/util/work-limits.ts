import { Slots } from "./slots.js";

/**
 * Process-wide caps on the work git reads and writes cost, so that no request, push or repository
 * can exhaust the server's processes or file descriptors. Each is a fair queue ({@link Slots}):
 * work over a cap waits, round-robin across repositories, and is refused with `GitBusyError` (503)
 * only after waiting `queueTimeout`; other repositories keep working meanwhile.
 */
export interface WorkLimits {
  /** Short git commands (`rev-list`, `log`, `merge-tree`, …) running at once. */
  readonly maxProcesses: number;
  /** Long-lived git processes at once: clone/fetch/push services and streamed blobs or archives. */
  readonly maxStreams: number;
  /** Of each of the two, how many one repository may hold. */
  readonly maxPerRepository: number;
  /** Files Kiln itself has open at once for git data (refs, objects, the isomorphic-git reads). */
  readonly maxOpenFiles: number;
  /** How long work waits for a slot before it is refused, in ms. */
  readonly queueTimeout: number;
}

/** The defaults (`[git]` keys of app.ini override them). */
export const DEFAULT_WORK_LIMITS: WorkLimits = {
  maxProcesses: 32,
  maxStreams: 64,
  maxPerRepository: 8,
  maxOpenFiles: 256,
  queueTimeout: 30_000,
};

/** Waiters a queue holds at most; more are refused at once. */
const MAX_WAITING = 4096;

/** Short git commands. */
export const gitProcesses = new Slots("git process", {
  limit: DEFAULT_WORK_LIMITS.maxProcesses,
  perKey: DEFAULT_WORK_LIMITS.maxPerRepository,
  timeout: DEFAULT_WORK_LIMITS.queueTimeout,
  maxWaiting: MAX_WAITING,
});

/**
 * Long-lived git processes. A holder may go on to wait for command slots (a push's follow-up
 * work), never the reverse, so the two queues cannot wait for each other.
 */
export const gitStreams = new Slots("git stream", {
  limit: DEFAULT_WORK_LIMITS.maxStreams,
  perKey: DEFAULT_WORK_LIMITS.maxPerRepository,
  timeout: DEFAULT_WORK_LIMITS.queueTimeout,
  maxWaiting: MAX_WAITING,
});

/** Open files. */
export const openFiles = new Slots("open file", {
  limit: DEFAULT_WORK_LIMITS.maxOpenFiles,
  timeout: DEFAULT_WORK_LIMITS.queueTimeout,
  maxWaiting: 1_000_000,
});

/** Sets the caps (at start-up, from `[git]`); absent fields keep their value. */
export function configureWorkLimits(limits: Partial<WorkLimits>): void {
  const timeout = limits.queueTimeout;
  gitProcesses.configure({
    ...(limits.maxProcesses !== undefined ? { limit: limits.maxProcesses } : {}),
    ...(limits.maxPerRepository !== undefined ? { perKey: limits.maxPerRepository } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  });
  gitStreams.configure({
    ...(limits.maxStreams !== undefined ? { limit: limits.maxStreams } : {}),
    ...(limits.maxPerRepository !== undefined ? { perKey: limits.maxPerRepository } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  });
  openFiles.configure({
    ...(limits.maxOpenFiles !== undefined ? { limit: limits.maxOpenFiles } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
  });
}
