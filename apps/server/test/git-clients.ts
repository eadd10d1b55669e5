import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The outcome of running the real `git` (or `git lfs`). */
export interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs git non-interactively (no credential prompts, no system config) in `cwd`. */
export function git(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      "git",
      [...args],
      {
        cwd,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: "0",
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_CONFIG_GLOBAL: "/dev/null",
          GIT_AUTHOR_NAME: "Test Author",
          GIT_AUTHOR_EMAIL: "author@example.com",
          GIT_COMMITTER_NAME: "Test Author",
          GIT_COMMITTER_EMAIL: "author@example.com",
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs git and fails with its output when it does not succeed. */
export async function gitOk(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<string> {
  const run = await git(cwd, args, env);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")} failed (${run.code}):\n${run.stderr}`);
  return run.stdout;
}

/** A fresh directory for clones. */
export function scratch(prefix = "kiln-git-"): string {
  return mkdtempSync(join(process.env.KILN_E2E_TMP ?? tmpdir(), prefix));
}

/** A clone URL with credentials in it, as users paste them. */
export function cloneUrl(
  server: string,
  owner: string,
  repo: string,
  user?: string,
  secret?: string,
): string {
  const u = new URL(`${server}/${owner}/${repo}.git`);
  if (user) {
    u.username = user;
    u.password = secret ?? "";
  }
  return u.toString();
}
