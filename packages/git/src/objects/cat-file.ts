import { type ChildProcessByStdio, spawn } from "node:child_process";
import { Readable, type Writable } from "node:stream";
import type { GitRepository } from "../storage/git-repository.js";

/** An object's type and size as `git cat-file --batch-check` reports them. */
export interface ObjectHeader {
  readonly type: "blob" | "tree" | "commit" | "tag";
  readonly size: number;
}

/** Repositories with a live `cat-file --batch-check` process; the least recently used beyond this is stopped. */
const MAX_PROCESSES = 8;
/** A process unused this long exits. */
const IDLE_MS = 30_000;

interface Waiter {
  readonly resolve: (header: ObjectHeader | undefined) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One long-lived `git cat-file --batch-check` for a repository: object ids go in one per line,
 * `<oid> <type> <size>` (or `<oid> missing`) comes back in the same order. git reads only the
 * pack index and the object's header, never its content, so sizes for a whole directory
 * listing cost one round trip and no object reads.
 */
class BatchCheck {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #waiting: Waiter[] = [];
  #pending = "";
  #idle: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    readonly gitdir: string,
    onExit: () => void,
  ) {
    this.#child = spawn("git", ["--git-dir", gitdir, "cat-file", "--batch-check"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => this.#read(chunk));
    this.#child.stdin.on("error", () => {});
    const fail = (error: Error) => {
      this.closed = true;
      onExit();
      for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
    };
    this.#child.on("error", fail);
    this.#child.on("close", () => fail(new Error(`git cat-file --batch-check exited in ${gitdir}`)));
  }

  headers(oids: readonly string[]): Promise<(ObjectHeader | undefined)[]> {
    if (this.#idle) clearTimeout(this.#idle);
    const answers = oids.map(
      (_oid) =>
        new Promise<ObjectHeader | undefined>((resolve, reject) => this.#waiting.push({ resolve, reject })),
    );
    this.#child.stdin.write(`${oids.join("\n")}\n`);
    return Promise.all(answers).finally(() => {
      if (this.#waiting.length === 0 && !this.closed) {
        this.#idle = setTimeout(() => this.stop(), IDLE_MS);
        this.#idle.unref();
      }
    });
  }

  #read(chunk: string): void {
    this.#pending += chunk;
    for (let newline = this.#pending.indexOf("\n"); newline >= 0; newline = this.#pending.indexOf("\n")) {
      const line = this.#pending.slice(0, newline);
      this.#pending = this.#pending.slice(newline + 1);
      const [, type, size] = line.split(" ");
      const waiter = this.#waiting.shift();
      if (!waiter) continue;
      if (type === "blob" || type === "tree" || type === "commit" || type === "tag") {
        waiter.resolve({ type, size: Number(size) });
      } else waiter.resolve(undefined);
    }
  }

  stop(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#child.stdin.end();
  }
}

const processes = new Map<string, BatchCheck>();

/**
 * The type and size of each object (undefined for a missing one), from the repository's
 * long-lived `git cat-file --batch-check`.
 */
export async function objectHeaders(
  repo: Pick<GitRepository, "gitdir">,
  oids: readonly string[],
): Promise<(ObjectHeader | undefined)[]> {
  if (oids.length === 0) return [];
  for (const oid of oids) {
    if (!/^[0-9a-f]{40}$/.test(oid)) throw new Error(`not an object id: ${oid}`);
  }
  let batch = processes.get(repo.gitdir);
  if (batch?.closed) batch = undefined;
  if (batch) processes.delete(repo.gitdir);
  else {
    const started: BatchCheck = new BatchCheck(repo.gitdir, () => {
      if (processes.get(repo.gitdir) === started) processes.delete(repo.gitdir);
    });
    batch = started;
  }
  processes.set(repo.gitdir, batch);
  for (const [dir, old] of processes) {
    if (processes.size <= MAX_PROCESSES) break;
    processes.delete(dir);
    old.stop();
  }
  return batch.headers(oids);
}

/**
 * A blob's bytes as a stream from `git cat-file blob`, read as the consumer reads: memory stays
 * constant whatever the blob's size, and cancelling the stream stops git.
 */
export function streamBlob(repo: Pick<GitRepository, "gitdir">, oid: string): ReadableStream<Uint8Array> {
  if (!/^[0-9a-f]{40}$/.test(oid)) throw new Error(`not an object id: ${oid}`);
  const child = spawn("git", ["--git-dir", repo.gitdir, "cat-file", "blob", oid], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const stream = Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>;
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      child.kill();
      return reader.cancel();
    },
  });
}
