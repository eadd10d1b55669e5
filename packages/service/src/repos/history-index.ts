import { type GitRepository, writeCommitGraph } from "@kiln/git";
import type { ServiceContext } from "../context.js";

/**
 * Brings repositories' history index (git's commit-graph) up to date after refs changed, in the
 * background: on a long new history it takes longer than the rest of a push together, and the
 * client need not wait for it. The index only speeds up path-limited history queries, so a
 * missing or stale one is never wrong; a crash before it is written leaves the next write (any
 * later push or API write, `--reachable`) to cover those commits. It is not part of a
 * repository's size (RepoStore.size), so nothing is measured again. One run per repository at a time.
 */
export class HistoryIndexer {
  private readonly running = new Map<number, Promise<void>>();

  constructor(private readonly ctx: ServiceContext) {}

  /** Queues a commit-graph write of `git`, repository `repoId`'s. */
  schedule(repoId: number, git: GitRepository): void {
    const before = this.running.get(repoId) ?? Promise.resolve();
    // Started on the loop's next turn, once the move's answer is written: starting git blocks the
    // event loop (a fork of the whole server process) for tens of milliseconds.
    const work: Promise<void> = before
      .then(() => new Promise<void>((next) => setImmediate(next)))
      .then(() => this.index(repoId, git))
      .finally(() => {
        if (this.running.get(repoId) === work) this.running.delete(repoId);
      });
    this.running.set(repoId, work);
  }

  /** Waits for every queued write (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async index(repoId: number, git: GitRepository): Promise<void> {
    try {
      // Under the repository's write lock: a deletion or move waits rather than racing the write.
      await git.withWriteLock(() => writeCommitGraph(git));
    } catch (err) {
      // A concurrent write holding git's lock, or the repository deleted or moved meanwhile.
      this.ctx.logger.warn({ err: (err as Error).message, repo: repoId }, "commit-graph not updated");
    }
  }
}
