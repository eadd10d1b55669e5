import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import { GitInvalidArgumentError } from "../errors/git-error.js";
import type { RefUpdate } from "../hooks/push-policy.js";
import { refsChanged } from "../objects/repo-state.js";
import { isolatedEnv } from "../util/git-env.js";
import { runGit } from "../util/run-git.js";
import { STAGING_REFS } from "../util/staging-refs.js";
import { CheckedRemote } from "./checked-remote.js";
import { pinnedGitConfig } from "./pinned-config.js";

/** What a mirror talks to: a remote that passed `checkRemote` (pinned to its checked addresses), and its credentials. */
export interface MirrorRemoteOptions {
  readonly remote: CheckedRemote;
  /** Basic-auth credentials, sent as a header (through the environment), never in the URL or arguments. */
  readonly auth?: { readonly username: string; readonly password: string };
  /** Give up after this many milliseconds (default 5 minutes, Forgejo's `[git.timeout] MIRROR`). */
  readonly timeoutMs?: number;
  /** Kills git when aborted. */
  readonly signal?: AbortSignal;
}

/** Why a mirror operation failed: git's words, with no credentials (they never reach git's command line or URL). */
export class MirrorSyncError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MirrorSyncError";
  }
}

/** The refspecs a mirror moves, as Forgejo's push mirrors: every branch and every tag, forced. */
const MIRROR_REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];

/**
 * Where a pull mirror's sync puts the remote's branches and tags before they replace the mirror's:
 * the fetch moves no visible ref, so the sync can tell the journal what will move before it does.
 * Hidden from clients ({@link STAGING_REFS}).
 */
export const MIRROR_STAGING = `${STAGING_REFS}mirror/`;
const STAGING_REFSPECS = [`+refs/heads/*:${MIRROR_STAGING}heads/*`, `+refs/tags/*:${MIRROR_STAGING}tags/*`];

/** The environment of a git process talking to a mirror remote: pinned, no machine configuration, credentials as a header. */
async function remoteEnv(options: MirrorRemoteOptions, extra: NodeJS.ProcessEnv = {}) {
  if (!CheckedRemote.is(options.remote))
    throw new GitInvalidArgumentError("a mirror remote must be checked with checkRemote");
  const config = await pinnedGitConfig(options.remote);
  if (options.auth) {
    const token = Buffer.from(`${options.auth.username}:${options.auth.password}`).toString("base64");
    config.push(["http.extraHeader", `Authorization: Basic ${token}`]);
  }
  return isolatedEnv({
    GIT_ASKPASS: "true",
    GIT_LFS_SKIP_SMUDGE: "1",
    ...extra,
    GIT_CONFIG_COUNT: String(config.length),
    ...Object.fromEntries(
      config.flatMap(([key, value], i) => [
        [`GIT_CONFIG_KEY_${i}`, key],
        [`GIT_CONFIG_VALUE_${i}`, value],
      ]),
    ),
  });
}

/** Runs git against the remote with a timeout; throws {@link MirrorSyncError} with git's message when it fails. */
async function runRemoteGit(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: MirrorRemoteOptions,
): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 300_000);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener("abort", onAbort);
  try {
    const result = await runGit(args, { cwd, env, signal: controller.signal, longLived: true }).catch(
      (error: unknown) => {
        throw new MirrorSyncError(controller.signal.aborted ? "git timed out or was stopped" : String(error));
      },
    );
    if (result.code !== 0) {
      throw new MirrorSyncError(result.stderr.trim() || `git ${args[0]} exited with ${result.code}`);
    }
    return result.stderr;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** The refs under `prefixes` and where they point. */
async function refsUnder(repo: GitRepository, ...prefixes: string[]): Promise<Map<string, string>> {
  const result = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", ...prefixes], {
    cwd: repo.gitdir,
  });
  if (result.code !== 0) throw new MirrorSyncError(result.stderr.trim() || "git for-each-ref failed");
  const refs = new Map<string, string>();
  for (const line of result.stdout.toString("utf8").split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

/** Applies ref updates in one git transaction: all of them, or none when one fails. */
async function updateRefs(repo: GitRepository, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const result = await runGit(["update-ref", "--stdin"], {
    cwd: repo.gitdir,
    input: `${lines.join("\n")}\n`,
  });
  if (result.code !== 0) throw new MirrorSyncError(result.stderr.trim() || "git update-ref failed");
}

/** Removes the staging refs a sync leaves (or a killed sync left). */
async function clearStaging(repo: GitRepository): Promise<void> {
  const staged = await refsUnder(repo, MIRROR_STAGING);
  await updateRefs(
    repo,
    [...staged.keys()].map((ref) => `delete ${ref}`),
  );
}

/** What changed between two ref maps, as ref updates (40 zeros for a missing side). */
function diffRefs(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): RefUpdate[] {
  const zero = "0".repeat(40);
  const updates: RefUpdate[] = [];
  for (const [ref, newSha] of after) {
    const oldSha = before.get(ref);
    if (oldSha !== newSha) updates.push({ ref, oldSha: oldSha ?? zero, newSha });
  }
  for (const [ref, oldSha] of before) if (!after.has(ref)) updates.push({ ref, oldSha, newSha: zero });
  return updates.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

/** Whether git's packet trace shows the remote answering in pkt-lines (smart HTTP, not a web page). */
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
 * Brings a pull mirror up to date (Forgejo's runSync): the remote's branches and tags replace the
 * mirror's, with `prune` removing those the remote no longer has. The remote must first answer
 * as a smart HTTP git server (a web page or a dumb server would look like an empty repository and
 * prune everything). The fetch writes only staging refs ({@link MIRROR_STAGING}); `beforeMove` is
 * then told every ref that will change, and they change in one git transaction, so a failure or a
 * kill leaves every branch and tag as it was or all of them moved. Holds the repository's write
 * lock. Resolves with the refs that changed.
 */
export async function fetchMirror(
  repo: GitRepository,
  options: MirrorRemoteOptions & {
    readonly prune: boolean;
    readonly beforeMove?: (updates: readonly RefUpdate[]) => Promise<void>;
  },
): Promise<RefUpdate[]> {
  const temp = await mkdtemp(join(tmpdir(), "kiln-mirror-"));
  try {
    const trace = join(temp, "packets");
    const url = options.remote.url.href;
    await runRemoteGit(
      ["ls-remote", "--heads", "--", url],
      repo.gitdir,
      await remoteEnv(options, { GIT_TRACE_PACKET: trace }),
      options,
    );
    if (!(await spokeSmartHttp(trace))) {
      throw new MirrorSyncError("the remote did not answer with git's smart HTTP protocol");
    }
    const env = await remoteEnv(options);
    return await repo.withWriteLock(async () => {
      try {
        await clearStaging(repo);
        // --no-tags: tags arrive through their refspec only, never auto-followed into refs/tags.
        await runRemoteGit(
          [
            "fetch",
            "--atomic",
            "--force",
            "--no-tags",
            "--no-write-fetch-head",
            "--quiet",
            "--",
            url,
            ...STAGING_REFSPECS,
          ],
          repo.gitdir,
          env,
          options,
        );
        const before = await refsUnder(repo, "refs/heads", "refs/tags");
        const staged = new Map<string, string>();
        for (const [ref, sha] of await refsUnder(repo, MIRROR_STAGING)) {
          staged.set(`refs/${ref.slice(MIRROR_STAGING.length)}`, sha);
        }
        const updates = diffRefs(before, options.prune ? staged : new Map([...before, ...staged]));
        if (updates.length === 0) return updates;
        await options.beforeMove?.(updates);
        await updateRefs(
          repo,
          updates.map((u) =>
            /^0+$/.test(u.newSha) ? `delete ${u.ref} ${u.oldSha}` : `update ${u.ref} ${u.newSha} ${u.oldSha}`,
          ),
        );
        return updates;
      } finally {
        await clearStaging(repo).catch(() => undefined);
        refsChanged(repo.gitdir);
      }
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/**
 * Pushes a repository to a push mirror (Forgejo's runPushSync): every branch and tag, forced, and
 * the remote's branches and tags that the repository no longer has are deleted.
 */
export async function pushMirror(repo: GitRepository, options: MirrorRemoteOptions): Promise<void> {
  await runRemoteGit(
    ["push", "--force", "--prune", "--quiet", "--", options.remote.url.href, ...MIRROR_REFSPECS],
    repo.gitdir,
    await remoteEnv(options),
    options,
  );
}
