import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { createGunzip } from "node:zlib";
import { gitStreams } from "../util/work-limits.js";

/** A running git service process and how it ended. */
export interface GitProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited and its pipes are closed. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const MAX_STDERR = 64 * 1024;

/** Spawns git (never through a shell) and keeps the first 64 KiB of its stderr. */
export function spawnGit(args: readonly string[], env: NodeJS.ProcessEnv, gitPath = "git"): GitProcess {
  const child = spawn(gitPath, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < MAX_STDERR) stderr += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      child.on("error", (error) => resolve({ code: -1, signal: null, stderr: `${stderr}${String(error)}` }));
      child.on("close", (code, signal) => resolve({ code, signal, stderr }));
    },
  );
  return { child, exited };
}

/**
 * Spawns git once one of the `[git] MAX_STREAMS` slots is free for `repository` (waiting in the
 * fair queue; `GitBusyError` when none comes free in time); the slot is released when git exits.
 */
export async function spawnGitInSlot(
  repository: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  gitPath = "git",
): Promise<GitProcess> {
  const release = await gitStreams.acquire(repository);
  try {
    const proc = spawnGit(args, env, gitPath);
    // The process's end frees the slot, even while its pipes still hold unread output.
    proc.child.once("exit", release);
    void proc.exited.finally(release);
    return proc;
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Streams a request body into the process's stdin, un-gzipping it when the client sent
 * `Content-Encoding: gzip`. A broken body kills the process. Never buffers the whole body.
 */
export function feedStdin(proc: GitProcess, body: ReadableStream<Uint8Array> | null, gzip: boolean): void {
  const { child } = proc;
  child.stdin.on("error", () => {});
  if (!body) {
    child.stdin.end();
    return;
  }
  const source = Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>);
  const done = gzip ? pipeline(source, createGunzip(), child.stdin) : pipeline(source, child.stdin);
  done.catch(() => {
    child.kill("SIGTERM");
  });
}

/**
 * Exposes the process's stdout as a web stream that is pulled on demand (back-pressure reaches
 * git). When stdout ends, the stream waits for `beforeClose` (process exit, callbacks) before it
 * closes, so the client sees the end only when the server is done. Cancelling kills git.
 */
export function stdoutStream(proc: GitProcess, beforeClose: () => Promise<void>): ReadableStream<Uint8Array> {
  const iterator = proc.child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (!done) {
          controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
          return;
        }
        await beforeClose();
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      proc.child.kill("SIGTERM");
      proc.child.stdout.destroy();
    },
  });
}

/**
 * git's stdout as a web stream, pulled as the consumer reads; `finished` runs once git has exited,
 * however it ended. git starts once a `[git] MAX_STREAMS` slot is free for the repository. A
 * non-zero exit errors the stream (after the bytes git wrote), so the response is cut, not
 * completed. Cancelling kills git and drops what its pipe still held.
 */
export function gitOutputStream(
  name: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  finished: () => unknown,
): ReadableStream<Uint8Array> {
  const at = args.indexOf("--git-dir");
  const repository = (at >= 0 ? args[at + 1] : undefined) ?? "";
  let proc: GitProcess | undefined;
  let chunks: AsyncIterator<Buffer> | undefined;
  let ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    // git starts when a stream slot is free; a stream that never gets one errors with GitBusyError.
    async start() {
      try {
        proc = await spawnGitInSlot(repository, args, env);
      } catch (error) {
        void Promise.resolve(finished()).catch(() => {});
        throw error;
      }
      const { child, exited } = proc;
      if (cancelled) child.kill("SIGTERM");
      child.stdin.on("error", () => {});
      child.stdin.end();
      child.stdout.on("error", () => {});
      ended = exited.then((result) => {
        void Promise.resolve(finished()).catch(() => {});
        return result;
      });
      chunks = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    },
    async pull(controller) {
      try {
        const { value, done } = await (chunks as AsyncIterator<Buffer>).next();
        if (!done) {
          controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
          return;
        }
        const { code, signal, stderr } = await (ended as Promise<{
          code: number | null;
          signal: NodeJS.Signals | null;
          stderr: string;
        }>);
        if (code !== 0) throw new Error(`git ${name} failed (${signal ?? code}): ${stderr.trim()}`);
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      cancelled = true;
      proc?.child.kill("SIGTERM");
      proc?.child.stdout.destroy();
    },
  });
}
