import { type ChildProcessByStdio, spawn } from "node:child_process";
import { Readable, type Writable } from "node:stream";
import type { GitRepository } from "../disk/git-repository.js";
import { isolatedEnv } from "../util/git-env.js";
import { gitStreams } from "../util/work-limits.js";

/** The four kinds of git object. */
export type GitObjectKind = "blob" | "tree" | "commit" | "tag";

/** An object's type and size as `git cat-file --batch-check` reports them. */
export interface ObjectHeader {
  readonly type: GitObjectKind;
  readonly size: number;
}

/** An object's type and bytes as `git cat-file --batch` gives them. */
export interface RawObject {
  readonly type: GitObjectKind;
  readonly data: Uint8Array;
}

/** Live batch processes per mode; the least recently used repository's beyond this is stopped. */
const MAX_PROCESSES = 8;
/** A process unused this long exits. */
const IDLE_MS = 30_000;
const OID = /^[0-9a-f]{40}$/;

function kindOf(word: string | undefined): GitObjectKind | undefined {
  return word === "blob" || word === "tree" || word === "commit" || word === "tag" ? word : undefined;
}

interface Waiter<T> {
  readonly resolve: (value: T | undefined) => void;
  readonly reject: (error: Error) => void;
}

/**
 * First in, first out, each operation in constant time: `Array#shift` moves every element, so
 * answering a batch of 5,000 objects with it cost quadratic time.
 */
class Queue<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#head++;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Removes and returns every item. */
  drain(): T[] {
    const items = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return items;
  }
}

/**
 * One long-lived `git cat-file --batch-check` or `--batch` for a repository: object ids go in one
 * per line and the answers come back in the same order, so a request costs one pipe round trip
 * and never a process start. Subclasses parse the answers.
 */
abstract class BatchProcess<T> {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  protected readonly waiting = new Queue<Waiter<T>>();
  #idle: NodeJS.Timeout | undefined;
  closed = false;

  constructor(gitdir: string, mode: "--batch" | "--batch-check", onExit: () => void) {
    this.#child = spawn("git", ["--git-dir", gitdir, "cat-file", mode], {
      env: isolatedEnv(),
      stdio: ["pipe", "pipe", "ignore"],
    });
    this.#child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
    this.#child.stdin.on("error", () => {});
    const fail = (error: Error) => {
      if (!this.closed) onExit();
      this.closed = true;
      for (const waiter of this.waiting.drain()) waiter.reject(error);
    };
    this.#child.on("error", fail);
    this.#child.on("close", () => fail(new Error(`git cat-file ${mode} exited in ${gitdir}`)));
    this.#hold(false);
  }

  /** An idle process must not keep Node running (a CLI command exits when its work is done). */
  #hold(busy: boolean): void {
    const handles = [this.#child, this.#child.stdout, this.#child.stdin] as {
      ref?(): void;
      unref?(): void;
    }[];
    for (const handle of handles) {
      if (busy) handle.ref?.();
      else handle.unref?.();
    }
  }

  ask(oids: readonly string[]): Promise<(T | undefined)[]> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#hold(true);
    const answers = oids.map(
      () => new Promise<T | undefined>((resolve, reject) => this.waiting.push({ resolve, reject })),
    );
    this.#child.stdin.write(`${oids.join("\n")}\n`);
    return Promise.all(answers).finally(() => {
      if (this.waiting.length === 0 && !this.closed) {
        this.#hold(false);
        this.#idle = setTimeout(() => this.stop(), IDLE_MS);
        this.#idle.unref();
      }
    });
  }

  protected abstract read(chunk: Buffer): void;

  stop(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#child.stdin.end();
  }
}

/** `<oid> <type> <size>` or `<oid> missing` per line. */
class BatchCheck extends BatchProcess<ObjectHeader> {
  #pending = "";

  protected read(chunk: Buffer): void {
    this.#pending += chunk.toString("latin1");
    for (let newline = this.#pending.indexOf("\n"); newline >= 0; newline = this.#pending.indexOf("\n")) {
      const [, type, size] = this.#pending.slice(0, newline).split(" ");
      this.#pending = this.#pending.slice(newline + 1);
      const kind = kindOf(type);
      this.waiting.shift()?.resolve(kind ? { type: kind, size: Number(size) } : undefined);
    }
  }
}

/** `<oid> <type> <size>\n<content>\n`, or `<oid> missing\n`. */
class BatchRead extends BatchProcess<RawObject> {
  #buffered: Buffer[] = [];
  #length = 0;
  /** The object being read: its type and size, once its header line has arrived. */
  #current: { readonly type: GitObjectKind | undefined; readonly size: number } | undefined;

  protected read(chunk: Buffer): void {
    this.#buffered.push(chunk);
    this.#length += chunk.length;
    for (;;) {
      if (!this.#current) {
        const all = this.#buffered.length === 1 ? this.#buffered[0] : Buffer.concat(this.#buffered);
        if (!all) return;
        this.#buffered = [all];
        const newline = all.indexOf(10);
        if (newline < 0) return;
        const [, type, size] = all.toString("latin1", 0, newline).split(" ");
        const kind = kindOf(type);
        this.#take(newline + 1);
        if (!kind) {
          this.waiting.shift()?.resolve(undefined);
          continue;
        }
        this.#current = { type: kind, size: Number(size) };
      }
      const current = this.#current;
      if (this.#length < current.size + 1) return;
      const body = this.#take(current.size + 1);
      this.#current = undefined;
      this.waiting
        .shift()
        ?.resolve({ type: current.type as GitObjectKind, data: body.subarray(0, current.size) });
    }
  }

  /** Removes and returns the first `n` buffered bytes. */
  #take(n: number): Buffer {
    const all = this.#buffered.length === 1 ? (this.#buffered[0] as Buffer) : Buffer.concat(this.#buffered);
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.#buffered = rest.length > 0 ? [rest] : [];
    this.#length = rest.length;
    return taken;
  }
}

type Pool<P> = Map<string, P>;

/** The live process of `gitdir` in `pool`, started when there is none; the least recently used beyond the cap stops. */
function processFor<P extends { closed: boolean; stop(): void }>(
  pool: Pool<P>,
  gitdir: string,
  start: (onExit: () => void) => P,
): P {
  let current = pool.get(gitdir);
  if (current?.closed) current = undefined;
  if (current) pool.delete(gitdir);
  else {
    const started: P = start(() => {
      if (pool.get(gitdir) === started) pool.delete(gitdir);
    });
    current = started;
  }
  pool.set(gitdir, current);
  for (const [dir, old] of pool) {
    if (pool.size <= MAX_PROCESSES) break;
    pool.delete(dir);
    old.stop();
  }
  return current;
}

function checkOids(oids: readonly string[]): void {
  for (const oid of oids) if (!OID.test(oid)) throw new Error(`not an object id: ${oid}`);
}

const checks: Pool<BatchCheck> = new Map();
const reads: Pool<BatchRead> = new Map();

/**
 * The type and size of each object (undefined for a missing one), from the repository's
 * long-lived `git cat-file --batch-check`: git reads only the pack index and the object's
 * header, never its content, so sizes for a whole directory listing cost one round trip.
 */
export async function objectHeaders(
  repo: Pick<GitRepository, "gitdir">,
  oids: readonly string[],
): Promise<(ObjectHeader | undefined)[]> {
  if (oids.length === 0) return [];
  checkOids(oids);
  const batch = processFor(
    checks,
    repo.gitdir,
    (onExit) => new BatchCheck(repo.gitdir, "--batch-check", onExit),
  );
  return batch.ask(oids);
}

/**
 * The type and whole content of each object (undefined for a missing one), from the
 * repository's long-lived `git cat-file --batch`. Callers ask only for objects they know to be
 * small (commits, trees, tags, blobs whose size they checked): the bytes are held in memory.
 */
export async function batchReadObjects(
  repo: Pick<GitRepository, "gitdir">,
  oids: readonly string[],
): Promise<(RawObject | undefined)[]> {
  if (oids.length === 0) return [];
  checkOids(oids);
  const batch = processFor(reads, repo.gitdir, (onExit) => new BatchRead(repo.gitdir, "--batch", onExit));
  return batch.ask(oids);
}

/** Stops the repository's batch processes (it was deleted or moved). */
export function stopBatchProcesses(gitdir: string): void {
  checks.get(gitdir)?.stop();
  checks.delete(gitdir);
  reads.get(gitdir)?.stop();
  reads.delete(gitdir);
}

/**
 * A blob's bytes as a stream from `git cat-file blob`, read as the consumer reads: memory stays
 * constant whatever the blob's size, and cancelling the stream stops git. git starts once a
 * `[git] MAX_STREAMS` slot is free for the repository (the stream errors with `GitBusyError`
 * when none comes free in time).
 */
export function streamBlob(repo: Pick<GitRepository, "gitdir">, oid: string): ReadableStream<Uint8Array> {
  checkOids([oid]);
  let child: ChildProcessByStdio<null, Readable, null> | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async start() {
      const release = await gitStreams.acquire(repo.gitdir);
      try {
        child = spawn("git", ["--git-dir", repo.gitdir, "cat-file", "blob", oid], {
          env: isolatedEnv(),
          stdio: ["ignore", "pipe", "ignore"],
        });
      } catch (error) {
        release();
        throw error;
      }
      child.on("exit", release);
      child.on("error", release);
      if (cancelled) child.kill();
      reader = (Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>).getReader();
    },
    async pull(controller) {
      const { done, value } = await (reader as ReadableStreamDefaultReader<Uint8Array>).read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      cancelled = true;
      child?.kill();
      return reader?.cancel();
    },
  });
}
