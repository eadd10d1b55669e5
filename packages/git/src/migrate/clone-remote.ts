import { rm } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitMigrationError } from "../errors/git-error.js";
import type { GitRepository } from "../storage/git-repository.js";
import type { RepoStore } from "../storage/repo-store.js";
import { runGit } from "../util/run-git.js";

/** Options of {@link cloneRemote}. */
export interface CloneRemoteOptions {
  /** The source: an `http(s)://` URL, or with `allowLocal` an absolute path or `file://` URL on this server. */
  readonly url: string;
  /** Basic-auth credentials for the source, sent as a header rather than in the URL. */
  readonly auth?: { readonly username: string; readonly password: string };
  /** Accept local paths; off by default since they read the server's own disk. */
  readonly allowLocal?: boolean;
  /** Give up after this many milliseconds (default 10 minutes). */
  readonly timeoutMs?: number;
}

function checkUrl(url: string, allowLocal: boolean): void {
  if (/^https?:\/\//i.test(url)) return;
  if (allowLocal && (url.startsWith("file://") || isAbsolute(url))) return;
  throw new GitInvalidArgumentError(`unsupported clone URL: ${url}`);
}

/**
 * Clones a remote repository's branches and tags into a new bare repository `<owner>/<name>`
 * (a plain migration, not a mirror): cloned next to the store, hooks installed, then renamed into
 * place. On any failure nothing is left behind. Throws already-exists or migration-failed.
 */
export async function cloneRemote(
  store: RepoStore,
  owner: string,
  name: string,
  options: CloneRemoteOptions,
): Promise<GitRepository> {
  checkUrl(options.url, options.allowLocal ?? false);
  if (await store.exists(owner, name))
    throw new GitAlreadyExistsError(`repository ${owner}/${name} already exists`);
  const temp = await store.tempDir();
  const target = `${temp}/repo.git`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "true",
    GIT_LFS_SKIP_SMUDGE: "1",
  };
  if (options.auth) {
    const token = Buffer.from(`${options.auth.username}:${options.auth.password}`).toString("base64");
    Object.assign(env, {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "http.extraHeader",
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${token}`,
    });
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 600_000);
  try {
    const args = ["clone", "--bare", "--quiet", "--no-hardlinks", "--", options.url, target];
    const clone = await runGit(args, { env, signal: controller.signal });
    if (clone.code !== 0)
      throw new GitMigrationError(`clone failed: ${clone.stderr.trim() || `exit ${clone.code}`}`);
    await runGit(["remote", "remove", "origin"], { cwd: target });
    return await store.adopt(target, owner, name);
  } catch (error) {
    if (error instanceof GitAlreadyExistsError || error instanceof GitMigrationError) throw error;
    throw new GitMigrationError(`clone failed: ${String(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    await rm(temp, { recursive: true, force: true });
  }
}
