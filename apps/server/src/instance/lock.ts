import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What the lock file says about the process holding a work path's data. */
export interface LockInfo {
  readonly pid: number;
  readonly role: "web" | "cli";
  /** For a running server: the Unix socket of its internal API and the token it expects. */
  readonly socket?: string;
  readonly token?: string;
}

/** The lock file of a data directory. */
export function lockPath(appDataPath: string): string {
  return join(appDataPath, "kiln.lock");
}

/** Thrown when another live process holds the data directory. */
export class LockedByOtherError extends Error {
  constructor(readonly holder: LockInfo) {
    super(
      holder.role === "web"
        ? `another kiln server (pid ${holder.pid}) is using this work path`
        : `another kiln command (pid ${holder.pid}) is using this work path; try again when it has finished`,
    );
    this.name = "LockedByOtherError";
  }
}

/**
 * An exclusive hold on a data directory. PGlite is single-process, so exactly one Kiln process
 * may open a data directory at a time: the server, or a CLI command when no server runs. The
 * lock is a file created with O_EXCL holding the owner's pid; a lock whose pid is dead (after a
 * crash or `kill -9`) is stale and is taken over.
 */
export class DataLock {
  private constructor(
    readonly file: string,
    private info: LockInfo,
  ) {}

  /** Takes the lock or throws LockedByOtherError. */
  static acquire(appDataPath: string, role: LockInfo["role"]): DataLock {
    mkdirSync(appDataPath, { recursive: true });
    const file = lockPath(appDataPath);
    const info: LockInfo = { pid: process.pid, role };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, "wx", 0o600);
        writeFileSync(fd, JSON.stringify(info));
        closeSync(fd);
        return new DataLock(file, info);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        const holder = readLock(appDataPath);
        if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new LockedByOtherError(holder);
        try {
          unlinkSync(file);
        } catch {
          // Another process removed it first; try again.
        }
      }
    }
    throw new Error(`could not take the lock ${file}`);
  }

  /** Publishes the internal API's socket in the lock file, with a fresh random token. */
  publishSocket(socket: string): string {
    const token = randomBytes(32).toString("hex");
    this.info = { ...this.info, socket, token };
    writeFileSync(this.file, JSON.stringify(this.info), { mode: 0o600 });
    return token;
  }

  /** Releases the lock if it is still ours. */
  release(): void {
    try {
      const current = JSON.parse(readFileSync(this.file, "utf8")) as LockInfo;
      if (current.pid === process.pid) unlinkSync(this.file);
    } catch {
      // Already gone.
    }
  }
}

/** The current holder of a data directory, if the lock file exists and is readable. */
export function readLock(appDataPath: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(lockPath(appDataPath), "utf8")) as LockInfo;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM means it exists but is someone else's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
