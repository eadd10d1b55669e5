/** How long after a push ends it is still credited to its pusher. */
const CREDIT_MS = 60_000;
/** A push that never said it ended (its client went away) is forgotten after this long. */
const FORGET_MS = 10 * 60_000;

/**
 * Who is pushing to which repository, in this process: a pull request whose head moved is
 * checked by whoever reads it first, which may be before the push's own callback runs, and the
 * push is still credited to its pusher. With several server processes, a move another process
 * saw first is credited to nobody (the Ghost user), never to the wrong user.
 */
export class PushTracker {
  readonly #pushes = new Map<number, Push[]>();
  /** The last recorded move of each branch (`repoId\nbranch`), oldest first. */
  readonly #moves = new Map<string, { readonly userId: number; readonly at: number }>();

  /** Marks a push to `repoId` by `userId` as running; call the answer when it is over. */
  begin(repoId: number, userId: number): () => void {
    const entry: Push = { userId, began: Date.now() };
    const list = this.#pushes.get(repoId) ?? [];
    list.push(entry);
    this.#pushes.set(repoId, list);
    return () => {
      entry.ended = Date.now();
    };
  }

  /**
   * Notes that `userId` moved `branches` of `repoId` (a move just recorded). A check of a pull
   * request headed by one of them credits that user, even while others push to the repository.
   */
  moved(repoId: number, userId: number, branches: readonly string[]): void {
    const now = Date.now();
    for (const branch of branches) {
      const key = `${repoId}\n${branch}`;
      this.#moves.delete(key);
      this.#moves.set(key, { userId, at: now });
    }
    // Oldest first: drop what no longer earns credit, so the map holds one minute of moves.
    for (const [key, move] of this.#moves) {
      if (now - move.at < CREDIT_MS) break;
      this.#moves.delete(key);
    }
  }

  /**
   * Who moved `branch` of the repository a moment ago, if a recorded move says so; otherwise the
   * one user pushing to the repository now or a moment ago, if there is exactly one.
   */
  pusher(repoId: number, branch?: string): number | null {
    const now = Date.now();
    const move = branch === undefined ? undefined : this.#moves.get(`${repoId}\n${branch}`);
    if (move && now - move.at < CREDIT_MS) return move.userId;
    const live = (this.#pushes.get(repoId) ?? []).filter((p) =>
      p.ended === undefined ? now - p.began < FORGET_MS : now - p.ended < CREDIT_MS,
    );
    if (live.length === 0) this.#pushes.delete(repoId);
    else this.#pushes.set(repoId, live);
    const users = new Set(live.map((p) => p.userId));
    return users.size === 1 ? (live[0]?.userId ?? null) : null;
  }
}

interface Push {
  readonly userId: number;
  readonly began: number;
  ended?: number;
}
