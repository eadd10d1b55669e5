import type { Repository } from "@kiln/domain";
import type { RefUpdate } from "@kiln/git";
import type { Db } from "@kiln/storage";
import type { RefJournal, RefMoveFacts, RefMoveKind } from "./ref-journal.js";

/**
 * The hook a journalled move hands to git: told the move (or an operation's moves) under git's
 * lock, before git makes it. It fits both `BeforeRefMove` and `BeforeRefMoves` of `@kiln/git`.
 */
export type JournalHook = (updates: RefUpdate | readonly RefUpdate[]) => Promise<void>;

/** How one ref move is journalled ({@link journalledMove}). */
export interface JournalledMoveSpec<T> {
  /** How a crash finishes the move (its finisher is registered with the journal). */
  readonly kind: RefMoveKind;
  readonly facts?: RefMoveFacts;
  /** Makes the move, passing `beforeMove` to git. */
  readonly move: (beforeMove: JournalHook) => Promise<T>;
  /** The moves made, when git did not announce them (it always does); empty when nothing moved. */
  readonly updatesOf: (result: T) => readonly RefUpdate[];
  /**
   * Records the moves' consequences, claiming `operation` (when there is one) in the same
   * transaction, as the kind's finisher does after a crash.
   */
  readonly record: (result: T, updates: readonly RefUpdate[], operation: string | undefined) => Promise<void>;
}

/**
 * The one way the service layer journals a ref move (docs/architecture.md, "The git window"):
 * `move` gets the hook that announces the updates before git makes them, then `record` writes
 * their consequences and claims the announcement, so a crash in between is finished at start-up
 * by the kind's finisher, its events recorded once. A move that failed, did not happen, or whose
 * record failed is settled against git at once.
 */
export async function journalledMove<T>(
  journal: RefJournal,
  repoId: number,
  doerId: number | null,
  spec: JournalledMoveSpec<T>,
): Promise<T> {
  let operation: string | undefined;
  let announced: readonly RefUpdate[] | undefined;
  const settle = async () => {
    if (operation) await journal.settle(operation);
  };
  let result: T;
  try {
    result = await spec.move(async (updates) => {
      announced = Array.isArray(updates) ? updates : [updates as RefUpdate];
      operation = await journal.announce(repoId, spec.kind, doerId, announced, spec.facts);
    });
  } catch (error) {
    await settle();
    throw error;
  }
  const moved = spec.updatesOf(result);
  if (moved.length === 0) {
    await settle();
    return result;
  }
  try {
    await spec.record(result, announced ?? moved, operation);
  } catch (error) {
    await settle();
    throw error;
  }
  return result;
}

/** A repository ref move (`RefUpdates.move`): recorded as the doer's push. */
export interface JournalledRefMove<T> extends Omit<JournalledMoveSpec<T>, "kind" | "record"> {
  /** `ref` (a branch or tag created or deleted through the API) by default. */
  readonly kind?: RefMoveKind;
  /** The rows the move changes besides its events, written in the transaction that claims it. */
  readonly record?: (trx: Db) => Promise<void>;
  /** The repository as it is after the move (a renamed default branch), for the record. */
  readonly repoAfter?: (result: T) => Repository;
}

/**
 * How `RefUpdates.record` records a journalled move: the operation that announced it (claimed in
 * the recording transaction), its kind (naming its crash point) and the rows it changes besides
 * its events, written in that transaction unless a reconciliation claimed it.
 */
export interface JournalledRecord {
  readonly operation?: string;
  readonly kind: RefMoveKind;
  readonly record?: (trx: Db) => Promise<void>;
}
