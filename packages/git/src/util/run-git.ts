import { spawn } from "node:child_process";
import { isolatedEnv } from "./git-env.js";
import { gitProcesses, gitStreams } from "./work-limits.js";

/** What a finished git process printed and how it exited. */
export interface GitRunResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** Set when git printed more than `maxStdout` bytes: `stdout` holds the first ones and git was stopped. */
  readonly truncated?: true;
}

/** Options of {@link runGit}. */
export interface RunGitOptions {
  readonly cwd?: string;
  /** The whole environment; {@link isolatedEnv} (no machine configuration) when absent. */
  readonly env?: NodeJS.ProcessEnv;
  readonly input?: string | Uint8Array;
  readonly gitPath?: string;
  /** Kills git when aborted. */
  readonly signal?: AbortSignal;
  /** The repository the work is for, for the per-repository cap; `--git-dir` or `cwd` when absent. */
  readonly repository?: string;
  /** Work that may last minutes (a clone or fetch from another server): counted as a stream. */
  readonly longLived?: boolean;
  /** Keeps at most this many bytes of stdout and stops git once it prints more (see `truncated`). */
  readonly maxStdout?: number;
}

/** The repository a git command works on: its `--git-dir`, else its working directory. */
export function repositoryOf(args: readonly string[], cwd?: string): string {
  const at = args.indexOf("--git-dir");
  return (at >= 0 ? args[at + 1] : undefined) ?? cwd ?? "";
}

/**
 * Runs the system git with arguments (never through a shell), by default in the isolated
 * environment, collects its output and resolves with the exit code; it rejects only when the
 * process cannot be started, or with `GitBusyError` when no process slot came free in time
 * (at most `[git] MAX_PROCESSES` run at once, see work-limits.ts).
 */
export async function runGit(args: readonly string[], options: RunGitOptions = {}): Promise<GitRunResult> {
  const pool = options.longLived ? gitStreams : gitProcesses;
  return pool.run(options.repository ?? repositoryOf(args, options.cwd), () => spawnCollect(args, options));
}

function spawnCollect(args: readonly string[], options: RunGitOptions): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.gitPath ?? "git", args, {
      cwd: options.cwd,
      env: options.env ?? isolatedEnv(),
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const max = options.maxStdout ?? Number.POSITIVE_INFINITY;
    let size = 0;
    let truncated = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > max) {
        out.push(chunk.subarray(0, max - size));
        truncated = true;
        child.kill("SIGKILL");
        return;
      }
      out.push(chunk);
      size += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString("utf8"),
        ...(truncated ? { truncated: true as const } : {}),
      });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
  });
}

/** Like {@link runGit} but rejects with git's message when it exits non-zero; resolves with stdout as text. */
export async function runGitOk(args: readonly string[], options: RunGitOptions = {}): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) {
    throw new Error(`git ${args[0] ?? ""} failed (${result.code}): ${result.stderr.trim()}`);
  }
  return result.stdout.toString("utf8");
}
