import type { GitRepository } from "../disk/git-repository.js";
import type { GitSignature, SignatureInput } from "../objects/signature.js";
import { isolatedEnv } from "../util/git-env.js";
import { type GitRunResult, runGit } from "../util/run-git.js";

/** Re-exported for the pull request code, which imports it from here. */
export { isolatedEnv };

/** Runs git in the bare repository with the isolated environment. */
export function gitIn(
  repo: Pick<GitRepository, "gitdir">,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; maxStdout?: number } = {},
): Promise<GitRunResult> {
  return runGit(["--git-dir", repo.gitdir, ...args], {
    env: isolatedEnv(options.env),
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.maxStdout !== undefined ? { maxStdout: options.maxStdout } : {}),
  });
}

/** Like {@link gitIn}, rejecting with git's message on a non-zero exit; resolves with stdout as trimmed text. */
export async function gitOk(
  repo: Pick<GitRepository, "gitdir">,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<string> {
  const result = await gitIn(repo, args, options);
  if (result.code !== 0) {
    throw new Error(`git ${args[0] ?? ""} failed (${result.code}): ${result.stderr.trim()}`);
  }
  return result.stdout.toString("utf8").trim();
}

function zone(minutesEast: number): string {
  const sign = minutesEast < 0 ? "-" : "+";
  const abs = Math.abs(minutesEast);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

/** An identity as git's `GIT_<ROLE>_NAME/EMAIL/DATE` variables, in git's raw date format. */
export function identityEnv(
  role: "AUTHOR" | "COMMITTER",
  who: SignatureInput | GitSignature,
): NodeJS.ProcessEnv {
  const seconds = "timestamp" in who ? who.timestamp : Math.floor((who.date ?? new Date()).getTime() / 1000);
  return {
    [`GIT_${role}_NAME`]: who.name,
    [`GIT_${role}_EMAIL`]: who.email,
    [`GIT_${role}_DATE`]: `@${seconds} ${zone(who.timezoneOffset ?? 0)}`,
  };
}
