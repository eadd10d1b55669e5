import type { RepoStore } from "@kiln/git";
import { type Db, repoMoves } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/**
 * Directory moves of renamed or transferred repositories, made crash-safe by a journal: the
 * transaction that changes the rows journals each move (`repo_move`), and the directories move
 * only after it committed ({@link drain}, which the operation calls and start-up calls again).
 * A kill -9 before the commit leaves rows and directories as they were; one after it leaves
 * journal rows that the next drain finishes, in order. Each move is one `rename(2)` and is
 * idempotent: a source already gone with its target present counts as done.
 */
export class RepoMoves {
  #draining: Promise<void> | undefined;
  #again = false;
  #removing: Promise<void> | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly store: RepoStore,
  ) {}

  /** Journals the move of `from` to `to` in the caller's transaction. */
  async journal(
    trx: Db,
    from: { readonly owner: string; readonly name: string },
    to: { readonly owner: string; readonly name: string },
  ): Promise<void> {
    if (
      from.owner.toLowerCase() === to.owner.toLowerCase() &&
      from.name.toLowerCase() === to.name.toLowerCase()
    )
      return;
    await repoMoves.journalMove(trx, {
      fromOwner: from.owner,
      fromName: from.name,
      toOwner: to.owner,
      toName: to.name,
    });
  }

  /**
   * Carries out every journalled move, oldest first; concurrent calls share one pass, and a call
   * made while a pass runs gets another pass after it (its move may have been journalled after
   * the running pass looked). It never fails: a move that cannot be made is logged and stays
   * journalled, with the moves after it, for the next pass.
   */
  drain(): Promise<void> {
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = (async () => {
      do {
        this.#again = false;
        await this.#drain().catch((err) =>
          this.ctx.logger.error({ err: String(err) }, "a journalled repository move failed"),
        );
      } while (this.#again);
    })().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  /**
   * One pass over the journal. No transaction is open while a directory moves: a move waits for
   * the repository's lock (a push in progress holds it), and on the embedded database a waiting
   * transaction would hold the only connection. Each move is idempotent, so a crash between the
   * move and the removal of its row is finished by the next pass.
   */
  async #drain(): Promise<void> {
    for (;;) {
      const move = await repoMoves.firstMove(this.ctx.db);
      if (!move) return;
      const from = { owner: move.fromOwner, name: move.fromName };
      const to = { owner: move.toOwner, name: move.toName };
      const [source, target] = await Promise.all([
        this.store.exists(from.owner, from.name),
        this.store.exists(to.owner, to.name),
      ]);
      if (source && target) {
        // Something else holds the target: moving onto it or dropping the move would lose one of
        // them. The move and those after it wait for an operator.
        this.ctx.logger.error(
          { from: `${from.owner}/${from.name}`, to: `${to.owner}/${to.name}` },
          "a journalled repository move finds its target taken; it stays journalled",
        );
        return;
      }
      if (source) await this.store.move(from, to);
      else if (!target)
        this.ctx.logger.warn(
          { from: `${from.owner}/${from.name}`, to: `${to.owner}/${to.name}` },
          "a journalled repository move found no directory to move",
        );
      await repoMoves.deleteMove(this.ctx.db, move.id);
    }
  }

  /** Journals the removal of a deleted repository's directory in the transaction deleting its row. */
  async journalRemoval(trx: Db, owner: string, name: string): Promise<void> {
    await repoMoves.journalDeletion(trx, owner, name);
  }

  /**
   * A new repository's row is written where a journalled removal names the same directory: the
   * directory is the new repository's now (it was made after the old one went), so the removal
   * is forgotten in the same transaction.
   */
  async forgetRemovals(trx: Db, owner: string, name: string): Promise<void> {
    await repoMoves.forgetDeletions(trx, owner, name);
  }

  /**
   * Removes every journalled directory, oldest first, then its journal row; concurrent calls share
   * one pass. It never fails: a directory that cannot be removed is logged and stays journalled.
   */
  drainRemovals(): Promise<void> {
    this.#removing ??= this.#drainRemovals().finally(() => {
      this.#removing = undefined;
    });
    return this.#removing;
  }

  async #drainRemovals(): Promise<void> {
    for (const removal of await repoMoves.listDeletions(this.ctx.db)) {
      try {
        // A removal never takes a directory a repository row names now (one made or moved there
        // after the deletion): only the journal row goes.
        const claimed = await repoMoves.pathClaimed(this.ctx.db, removal.owner, removal.name);
        if (!claimed && (await this.store.exists(removal.owner, removal.name)))
          await this.store.delete(removal.owner, removal.name);
        await repoMoves.deleteDeletion(this.ctx.db, removal.id);
      } catch (err) {
        this.ctx.logger.error(
          { err: String(err), repo: `${removal.owner}/${removal.name}` },
          "could not remove a deleted repository's files",
        );
      }
    }
  }
}
