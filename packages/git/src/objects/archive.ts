import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import { gitOutputStream } from "../transport/git-process.js";
import { isolatedEnv } from "../util/git-env.js";
import { isoContext } from "./iso.js";
import { readCommitCached } from "./object-cache.js";
import { resolveCommit } from "./resolve.js";

/** The archive kinds Forgejo serves (its `git.ArchiveType`, spelled as the file extension). */
export type ArchiveFormat = "zip" | "tar.gz" | "bundle";

const FORMATS: readonly ArchiveFormat[] = ["zip", "tar.gz", "bundle"];
const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Splits `<ref>.<format>` (`main.zip`, `release/v1.tar.gz`, `<sha>.bundle`) into the ref and the
 * format, by suffix as Forgejo's `ParseFileName` does; undefined for any other suffix.
 */
export function splitArchiveName(name: string): { ref: string; format: ArchiveFormat } | undefined {
  const format = FORMATS.find((candidate) => name.endsWith(`.${candidate}`));
  return format ? { ref: name.slice(0, -(format.length + 1)), format } : undefined;
}

/**
 * Forgejo compresses `.tar.gz` archives of commits authored before this moment with the external
 * `gzip -cn`, so their checksums stay what they were before git's built-in gzip (Forgejo's
 * `codebergSwitchedToNewChecksumAlgorithm`, modules/git/repo_archive.go).
 */
const BUILTIN_GZIP_SINCE = Date.UTC(2024, 0, 12, 23, 0, 0) / 1000;

/**
 * At most this many archive processes run at once in this server; more requests wait for a slot
 * (archiving is CPU-bound, and each slot is one git process and a pipe, never a whole archive).
 */
const MAX_RUNNING = Math.max(2, availableParallelism());

/** A counting semaphore whose waiters can give up (a client that left stops waiting). */
export class ProcessSlots {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** How many slots are taken and how many requests wait for one. */
  get state(): { readonly running: number; readonly waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** Takes a slot, waiting for one if needed; rejects when `signal` aborts first. Call the result once to give it back. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#running >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener("abort", leave);
          resolve();
        };
        const leave = () => {
          const index = this.#waiting.indexOf(wake);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(signal?.reason);
        };
        this.#waiting.push(wake);
        signal?.addEventListener("abort", leave, { once: true });
      });
    }
    this.#running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      this.#waiting.shift()?.();
    };
  }
}

const slots = new ProcessSlots(MAX_RUNNING);

/** How many archive processes run now and how many requests wait for one (for tests and metrics). */
export function archiveProcesses(): { readonly running: number; readonly waiting: number } {
  return slots.state;
}

/** An archive of one commit, ready to be streamed. */
export interface RepoArchive {
  /** The commit the ref resolved to. */
  readonly commitSha: string;
  readonly format: ArchiveFormat;
  /**
   * Starts git and returns its output as a stream, pulled as the consumer reads (memory stays
   * constant whatever the repository's size). Cancelling the stream kills git; a git failure
   * errors the stream instead of ending it, so a client never takes a cut archive for a whole one.
   * Waits for a free slot first; `signal` abandons the wait.
   */
  open(signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

/** Options of {@link openArchive}. */
export interface ArchiveOptions {
  /**
   * The directory zip and tar.gz entries sit under, without the slash; the repository's directory
   * name (as Forgejo's `git archive --prefix=<name>/`) when absent, none when empty.
   */
  readonly prefix?: string;
}

/**
 * Resolves `ref` (branch, tag, commit sha, as every read does: exact names inside the
 * repository's refs only) to a commit and prepares its archive: `git archive` for zip and
 * tar.gz, `git bundle create` for a bundle holding the commit's history as branch `bundle` and
 * `HEAD`, as Forgejo makes it. Throws not-found (or empty-repository) for an unknown ref.
 */
export async function openArchive(
  repo: GitRepository,
  ref: string,
  format: ArchiveFormat,
  options: ArchiveOptions = {},
): Promise<RepoArchive> {
  const ctx = isoContext(repo);
  const commitSha = await resolveCommit(ctx, ref);
  if (!FULL_SHA.test(commitSha)) throw new Error(`not a commit id: ${commitSha}`);
  const authored = (await readCommitCached(ctx, commitSha)).commit.author.timestamp;
  const prefix = options.prefix ?? repo.name;
  return {
    commitSha,
    format,
    async open(signal) {
      const release = await slots.acquire(signal);
      try {
        if (format === "bundle") return await bundleStream(repo, commitSha, release);
        const args = ["--git-dir", repo.gitdir];
        if (format === "tar.gz" && authored < BUILTIN_GZIP_SINCE)
          args.push("-c", "tar.tar.gz.command=gzip -cn");
        args.push("archive", `--format=${format}`);
        if (prefix) args.push(`--prefix=${prefix}/`);
        args.push(commitSha);
        return gitOutputStream("archive", args, isolatedEnv(), release);
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

/**
 * A bundle as Forgejo's `CreateBundle` makes it: a scratch repository that borrows the
 * repository's objects (`GIT_OBJECT_DIRECTORY`) and holds only `refs/heads/bundle` at the commit,
 * bundled with `HEAD`. Written straight to the stream; the scratch directory goes when git exits.
 */
async function bundleStream(
  repo: GitRepository,
  commitSha: string,
  release: () => void,
): Promise<ReadableStream<Uint8Array>> {
  const dir = await mkdtemp(join(tmpdir(), "kiln-bundle-"));
  const done = () => {
    release();
    return rm(dir, { recursive: true, force: true });
  };
  try {
    await mkdir(join(dir, "refs", "heads"), { recursive: true });
    await mkdir(join(dir, "objects"));
    await writeFile(join(dir, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
    await writeFile(join(dir, "HEAD"), "ref: refs/heads/bundle\n");
    await writeFile(join(dir, "refs", "heads", "bundle"), `${commitSha}\n`);
  } catch (error) {
    await done();
    throw error;
  }
  const env = isolatedEnv({ GIT_OBJECT_DIRECTORY: join(repo.gitdir, "objects") });
  const args = ["--git-dir", dir, "bundle", "create", "--quiet", "-", "bundle", "HEAD"];
  return gitOutputStream("bundle", args, env, done);
}
