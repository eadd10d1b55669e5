import { open, rm } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import type { RepoStore } from "../disk/repo-store.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitMigrationError } from "../errors/git-error.js";
import { isolatedEnv } from "../util/git-env.js";
import { runGit } from "../util/run-git.js";
import { CheckedRemote, SOURCE_UNREADABLE_MESSAGE } from "./checked-remote.js";
import { pinnedGitConfig } from "./pinned-config.js";

// The package index re-exports this file only, so the migration API lives here.
export type { CheckRemoteOptions, HostResolver } from "./checked-remote.js";
export {
  CheckedRemote,
  checkRemote,
  DISALLOWED_HOST_MESSAGE,
  SOURCE_UNREADABLE_MESSAGE,
} from "./checked-remote.js";
export type { RemoteUrl } from "./remote-url.js";
export { parseRemoteUrl } from "./remote-url.js";

/** Options of {@link cloneRemote}. */
export interface CloneRemoteOptions {
  /**
   * The source: a remote that passed `checkRemote` (git is pinned to its checked addresses and
   * follows no redirect), or an absolute path on this server, which the caller must have allowed.
   */
  readonly from: CheckedRemote | { readonly localPath: string };
  /** Basic-auth credentials for the source, sent as a header rather than in the URL. */
  readonly auth?: { readonly username: string; readonly password: string };
  /** Give up after this many milliseconds (default 10 minutes). */
  readonly timeoutMs?: number;
}

/** The source git is given, the configuration that goes with it, and whether it must speak smart HTTP. */
async function sourceOf(
  from: CloneRemoteOptions["from"],
): Promise<{ url: string; config: [string, string][]; network: boolean }> {
  if (CheckedRemote.is(from))
    return { url: from.url.href, config: await pinnedGitConfig(from), network: true };
  if ("localPath" in from && isAbsolute(from.localPath) && !from.localPath.startsWith("//")) {
    return { url: from.localPath, config: [], network: false };
  }
  throw new GitInvalidArgumentError("a migration source must be a checked remote or an absolute local path");
}

/**
 * Whether git's packet trace shows the source answering in pkt-lines, i.e. smart HTTP (the
 * dumb protocol has none). Without them, git fell back to the
 * "dumb" protocol, which takes any web page for an empty repository: refusing it keeps an open
 * port that is not a git server indistinguishable from a closed one. Only the head of the trace is
 * read (git stops tracing at the pack).
 */
async function spokeSmartHttp(trace: string): Promise<boolean> {
  const file = await open(trace).catch(() => undefined);
  if (!file) return false;
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return /packet:\s+\S+< /.test(head.subarray(0, bytesRead).toString("latin1"));
  } finally {
    await file.close();
  }
}

/**
 * Clones a remote repository's branches and tags into a new bare repository `<owner>/<name>`
 * (a plain migration, not a mirror): cloned next to the store, hooks installed, then renamed into
 * place. On any failure nothing is left behind. Throws already-exists, or migration-failed with
 * {@link SOURCE_UNREADABLE_MESSAGE} whatever went wrong (git's own words are in `cause`).
 */
export async function cloneRemote(
  store: RepoStore,
  owner: string,
  name: string,
  options: CloneRemoteOptions,
): Promise<GitRepository> {
  const source = await sourceOf(options.from);
  if (await store.exists(owner, name))
    throw new GitAlreadyExistsError(`repository ${owner}/${name} already exists`);
  const config = [...source.config];
  if (options.auth) {
    const token = Buffer.from(`${options.auth.username}:${options.auth.password}`).toString("base64");
    config.push(["http.extraHeader", `Authorization: Basic ${token}`]);
  }
  const temp = await store.tempDir();
  const target = join(temp, "repo.git");
  const trace = join(temp, "packets");
  // Nothing of the machine's: no system or user git configuration (credential helpers, LFS
  // filters, url rewrites) and no proxy variables, which would connect elsewhere than the pin.
  const env = isolatedEnv({
    GIT_ASKPASS: "true",
    GIT_LFS_SKIP_SMUDGE: "1",
    ...(source.network ? { GIT_TRACE_PACKET: trace } : {}),
    // Through the environment, so credentials never appear in a process listing.
    GIT_CONFIG_COUNT: String(config.length),
    ...Object.fromEntries(
      config.flatMap(([key, value], i) => [
        [`GIT_CONFIG_KEY_${i}`, key],
        [`GIT_CONFIG_VALUE_${i}`, value],
      ]),
    ),
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 600_000);
  try {
    const args = ["clone", "--bare", "--quiet", "--no-hardlinks", "--", source.url, target];
    const clone = await runGit(args, { env, signal: controller.signal, longLived: true }).catch(
      (error: unknown) => {
        throw new GitMigrationError(SOURCE_UNREADABLE_MESSAGE, { cause: error });
      },
    );
    if (clone.code !== 0) {
      throw new GitMigrationError(SOURCE_UNREADABLE_MESSAGE, {
        cause: new Error(clone.stderr.trim() || `git clone exited with ${clone.code}`),
      });
    }
    if (source.network && !(await spokeSmartHttp(trace))) {
      throw new GitMigrationError(SOURCE_UNREADABLE_MESSAGE, {
        cause: new Error(
          "the source did not answer with git's smart HTTP protocol (a web page or a dumb server)",
        ),
      });
    }
    await runGit(["remote", "remove", "origin"], { cwd: target });
    return await store.adopt(target, owner, name);
  } finally {
    clearTimeout(timer);
    await rm(temp, { recursive: true, force: true });
  }
}
