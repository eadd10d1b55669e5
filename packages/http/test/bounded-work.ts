import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globSteps } from "@kiln/git";
import { expect } from "vitest";

/**
 * Helpers of the bounded-work hostile tests: run an attack while an unrelated request is timed,
 * count matcher work, and drive the real git CLI against a test app served on loopback.
 */

/**
 * How long an unrelated request may take while an attack runs. The attacks these tests replay
 * stalled every request for seconds to minutes; the bound is generous for a loaded 2-core CI
 * machine, and it is a behavioural bound, not a benchmark.
 */
export const RESPONSIVE_MS = 2000;

/**
 * Runs `attack` and, while it is under way, asks `GET /api/v1/version` of the served app again and
 * again (at least once): resolves with the attack's result and the slowest answer's time.
 */
export async function whileAttacking<T>(
  url: string,
  attack: () => Promise<T>,
): Promise<{ readonly result: T; readonly slowest: number }> {
  let done = false;
  const running = attack().finally(() => {
    done = true;
  });
  let slowest = 0;
  do {
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/version`);
    expect(res.status).toBe(200);
    await res.text();
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  } while (!done);
  return { result: await running, slowest };
}

/** Runs `work` and resolves with its result and the glob matcher steps it took. */
export async function countingSteps<T>(work: () => Promise<T>): Promise<{ result: T; steps: number }> {
  const before = globSteps();
  const result = await work();
  return { result, steps: globSteps() - before };
}

/** The outcome of a git CLI run. */
export interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const GIT_ENV = {
  PATH: process.env.PATH,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Hostile",
  GIT_AUTHOR_EMAIL: "hostile@example.com",
  GIT_COMMITTER_NAME: "Hostile",
  GIT_COMMITTER_EMAIL: "hostile@example.com",
};

/** Runs git in `cwd` (never throws); `input` goes to its stdin. */
export function git(cwd: string, args: readonly string[], input?: string): Promise<GitRun> {
  return new Promise((resolve) => {
    const child = execFile(
      "git",
      [...args],
      { cwd, env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
    // git may exit before reading its input (a refused push): that is no error of the test.
    child.stdin?.on("error", () => {});
    child.stdin?.end(input ?? "");
  });
}

/** Runs git and fails with its output when it does not succeed; resolves with trimmed stdout. */
export async function gitOk(cwd: string, args: readonly string[], input?: string): Promise<string> {
  const run = await git(cwd, args, input);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")} failed (${run.code}):\n${run.stderr}`);
  return run.stdout.trim();
}

/** A scratch git repository (not bare) for building pushes; `cleanup` removes it. */
export async function workRepo(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "kiln-hostile-"));
  await gitOk(dir, ["init", "-q", "-b", "main"]);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A commit whose tree holds `count` empty files named `<prefix><n>` (built with `git mktree`, so
 * a tree of thousands of files costs milliseconds) plus `extra` files; resolves with its sha.
 */
export async function commitManyFiles(
  dir: string,
  count: number,
  prefix: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<string> {
  const empty = await gitOk(dir, ["hash-object", "-w", "--stdin"], "");
  const lines = Array.from({ length: count }, (_, i) => `100644 blob ${empty}\t${prefix}${i}`);
  for (const [name, content] of Object.entries(extra)) {
    lines.push(`100644 blob ${await gitOk(dir, ["hash-object", "-w", "--stdin"], content)}\t${name}`);
  }
  const tree = await gitOk(dir, ["mktree"], `${lines.join("\n")}\n`);
  return gitOk(dir, ["commit-tree", tree, "-m", `${count} files`]);
}

/** A push URL for a served app with a user's token as password. */
export function pushUrl(server: string, owner: string, repo: string, user: { name: string; token: string }) {
  const url = new URL(`${server}/${owner}/${repo}.git`);
  url.username = user.name;
  url.password = user.token;
  return url.toString();
}
