import type { Db } from "../database.js";

/** A web session as stored (its id is the SHA-256 of the cookie value). */
export interface WebSessionRecord {
  readonly id: string;
  readonly userId: number | null;
  readonly pendingUserId: number | null;
  readonly data: string;
  readonly expiresAt: Date;
}

const COLUMNS = ["id", "userId", "pendingUserId", "data", "expiresAt"] as const;

/** A session that has not expired. */
export async function findSession(
  db: Db,
  id: string,
  now: Date = new Date(),
): Promise<WebSessionRecord | undefined> {
  return db
    .selectFrom("webSession")
    .select(COLUMNS)
    .where("id", "=", id)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
}

/**
 * Changes a session that still exists; false when it is gone (signed out, locked out, expired),
 * so an in-flight request can never bring a deleted session back.
 */
export async function updateSession(
  db: Db,
  session: WebSessionRecord,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("webSession")
    .set({
      userId: session.userId,
      pendingUserId: session.pendingUserId,
      data: session.data,
      expiresAt: session.expiresAt,
    })
    .where("id", "=", session.id)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Creates or replaces a session (at sign-in; later changes use {@link updateSession}). */
export async function saveSession(db: Db, session: WebSessionRecord): Promise<void> {
  await db
    .insertInto("webSession")
    .values(session)
    .onConflict((oc) =>
      oc.column("id").doUpdateSet({
        userId: session.userId,
        pendingUserId: session.pendingUserId,
        data: session.data,
        expiresAt: session.expiresAt,
      }),
    )
    .execute();
}

/** Deletes a session (sign-out). */
export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("webSession").where("id", "=", id).execute();
}

/** Deletes the sessions that expired before `now`; how many. */
export async function deleteExpiredSessions(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db.deleteFrom("webSession").where("expiresAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
