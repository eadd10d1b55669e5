import type { Repository } from "@kiln/domain";
import { commitDiffStream, getCommitInfos, resolveCommitSha } from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { DEFAULT_DIFF_LIMITS, type DiffLimits, type ParsedDiff } from "./diff-parse.js";
import { readDiff } from "./diff-read.js";

/**
 * Parsed commit diffs kept between requests: a commit's diff never changes, and git's diff of a
 * 50-file commit costs a process and tens of milliseconds. Bounded by the bytes git printed for
 * them (held at about three times that once parsed); a diff larger than one entry's share is
 * parsed every time.
 */
const MAX_CACHED_DIFF_BYTES = 8 * 1024 * 1024;
const MAX_DIFF_ENTRY_BYTES = 1024 * 1024;
const PARSED_PER_RAW_BYTE = 3;
const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** One commit's diff or patch (Forgejo's DownloadCommitDiffOrPatch), streamed from git. */
export class CommitDiffService {
  readonly #cache = new Map<string, { readonly diff: ParsedDiff; readonly bytes: number }>();
  #cachedBytes = 0;

  constructor(private readonly repos: RepoService) {}

  /** The commit a sha or ref names, as a diff against its first parent or a patch; 404 when none. */
  async raw(
    repo: Repository,
    name: string,
    options: { patch: boolean },
  ): Promise<ReadableStream<Uint8Array>> {
    const git = await this.repos.git(repo);
    const [commit] = await withGitErrors(async () =>
      getCommitInfos(git, [await resolveCommitSha(git, name)]),
    );
    if (!commit) throw new Error(`commit ${name} resolved to nothing`);
    return commitDiffStream(git, commit, options);
  }

  /**
   * The commit's diff against its first parent, parsed into files, hunks and lines within `limits`
   * (Forgejo's commit page); 404 when the name resolves to no commit. A commit named by its full
   * id is remembered: the answer is shared, and callers must not modify it.
   */
  async parsed(
    repo: Repository,
    name: string,
    limits: DiffLimits = DEFAULT_DIFF_LIMITS,
  ): Promise<ParsedDiff> {
    const key = FULL_ID.test(name)
      ? `${repo.id}\u0000${name}\u0000${limits.maxFiles}\u0000${limits.maxLines}\u0000${limits.maxLineCharacters}`
      : undefined;
    const known = key === undefined ? undefined : this.#cache.get(key);
    if (key !== undefined && known) {
      this.#cache.delete(key);
      this.#cache.set(key, known);
      return known.diff;
    }
    let rawBytes = 0;
    const counted = (await this.raw(repo, name, { patch: false })).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          rawBytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const diff = await readDiff(counted, limits);
    const bytes = rawBytes * PARSED_PER_RAW_BYTE + 1024;
    if (key !== undefined && bytes <= MAX_DIFF_ENTRY_BYTES) this.#remember(key, diff, bytes);
    return diff;
  }

  #remember(key: string, diff: ParsedDiff, bytes: number): void {
    const old = this.#cache.get(key);
    if (old) this.#cachedBytes -= old.bytes;
    this.#cache.set(key, { diff, bytes });
    this.#cachedBytes += bytes;
    for (const [oldest, entry] of this.#cache) {
      if (this.#cachedBytes <= MAX_CACHED_DIFF_BYTES) break;
      this.#cache.delete(oldest);
      this.#cachedBytes -= entry.bytes;
    }
  }
}
