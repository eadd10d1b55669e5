import type { Db } from "../database.js";

/** A ref move to journal: which ref of which repository goes from `oldSha` to `newSha`, and why. */
export interface NewRefIntent {
  readonly operation: string;
  readonly repoId: number;
  readonly ref: string;
  readonly oldSha: string;
  readonly newSha: string;
  /** What the move is for (`merge`, `push`, `contents`): it names how a crash is finished. */
  readonly kind: string;
  readonly doerId: number | null;
  readonly pullId?: number | null;
  /** JSON the kind needs to finish the move (a merge's style). */
  readonly detail?: string;
}

/** A journalled ref move with its id and when it was announced. */
export interface RefIntent extends Required<NewRefIntent> {
  readonly id: number;
  readonly createdAt: Date;
}

/** Journals ref moves (committed before git moves anything) and returns their ids. */
export async function insertIntents(db: Db, intents: readonly NewRefIntent[]): Promise<number[]> {
  if (intents.length === 0) return [];
  const rows = await db
    .insertInto("refUpdate")
    .values(
      intents.map((i) => ({
        operation: i.operation,
        repoId: i.repoId,
        ref: i.ref,
        oldSha: i.oldSha,
        newSha: i.newSha,
        kind: i.kind,
        doerId: i.doerId,
        pullId: i.pullId ?? null,
        detail: i.detail ?? "{}",
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Deletes the rows of an operation and returns how many were still there: the transaction that
 * deletes them is the one that records the move's consequences (0: another already did).
 */
export async function claimOperation(db: Db, operation: string): Promise<number> {
  const rows = await db.deleteFrom("refUpdate").where("operation", "=", operation).returning("id").execute();
  return rows.length;
}

/** The journalled moves announced before `before`, oldest first. */
export async function intentsBefore(db: Db, before: Date): Promise<RefIntent[]> {
  return db
    .selectFrom("refUpdate")
    .selectAll()
    .where("createdAt", "<", before)
    .orderBy("id")
    .execute() as Promise<RefIntent[]>;
}

/** The journalled moves of one operation, in order. */
export async function intentsOf(db: Db, operation: string): Promise<RefIntent[]> {
  return db
    .selectFrom("refUpdate")
    .selectAll()
    .where("operation", "=", operation)
    .orderBy("id")
    .execute() as Promise<RefIntent[]>;
}
