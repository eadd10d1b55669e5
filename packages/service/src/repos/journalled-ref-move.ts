import type { Repository } from "@kiln/domain";
import type { RefUpdate } from "@kiln/git";
import type { Db } from "@kiln/storage";
import type { RefMoveFacts, RefMoveKind } from "./ref-journal.js";
import type { RepoService } from "./repo-service.js";

/**
 * The hook a journalled move hands to git: told the move (or an operation's moves) under git's
 * lock, before git makes it. It fits both `BeforeRefMove` and `BeforeRefMoves` of `@kiln/git`.
 */
export type JournalHook = (updates: RefUpdate | readonly RefUpdate[]) => Promise<void>;

/** How one ref move is journalled and recorded ({@link journalledRefMove}). */
export interface JournalledMove<T> {
  /** Makes the move, passing `beforeMove` to git. */
  readonly move: (beforeMove: JournalHook) => Promise<T>;
  /** The moves made, when git did not announce them (it always does); empty when nothing moved. */
  readonly updatesOf: (result: T) => readonly RefUpdate[];
  /** How a crash finishes the move (registered with the journal); `ref` by default. */
  readonly kind?: RefMoveKind;
  readonly facts?: RefMoveFacts;
  /** The rows the move changes besides its events, written in the transaction that claims it. */
  readonly record?: (trx: Db) => Promise<void>;
  /** The repository as it is after the move (a renamed default branch), for the record. */
  readonly repoAfter?: (result: T) => Repository;
}

/**
 * A ref move made by the service layer (a branch or tag created, deleted or renamed through the
 * API, a head branch deleted after its merge), journalled like pushes and file writes
 * (docs/architecture.md, "The git window"): `move` gets the hook that announces the updates
 * before git makes them; they are then recorded as the doer's push (with `record`'s rows),
 * claiming the announcement, so a crash in between is finished at start-up by the kind's
 * finisher with its events recorded once. A move that failed or did not happen is settled
 * against git at once.
 */
export async function journalledRefMove<T>(
  repos: RepoService,
  repo: Repository,
  doerId: number,
  spec: JournalledMove<T>,
): Promise<T> {
  const kind = spec.kind ?? "ref";
  let operation: string | undefined;
  let announced: readonly RefUpdate[] | undefined;
  let result: T;
  try {
    result = await spec.move(async (updates) => {
      announced = Array.isArray(updates) ? updates : [updates as RefUpdate];
      operation = await repos.journal.announce(repo.id, kind, doerId, announced, spec.facts);
    });
  } catch (error) {
    if (operation) await repos.journal.settle(operation);
    throw error;
  }
  const moved = spec.updatesOf(result);
  if (moved.length === 0) {
    if (operation) await repos.journal.settle(operation);
    return result;
  }
  await repos.afterPush(spec.repoAfter ? spec.repoAfter(result) : repo, announced ?? moved, doerId, {
    kind,
    ...(operation ? { operation } : {}),
    ...(spec.record ? { record: spec.record } : {}),
  });
  return result;
}
