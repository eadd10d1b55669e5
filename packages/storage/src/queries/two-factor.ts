import { sql } from "kysely";
import type { Db, TwoFactorRow } from "../database.js";

/** A user's TOTP enrolment, or undefined when two-factor authentication is off. */
export async function findTwoFactor(db: Db, userId: number): Promise<TwoFactorRow | undefined> {
  return db.selectFrom("twoFactor").selectAll().where("userId", "=", userId).executeTakeFirst();
}

/** Enrols (or re-enrols) a user with an encrypted TOTP secret. */
export async function upsertTwoFactor(db: Db, userId: number, secret: string): Promise<void> {
  await db
    .insertInto("twoFactor")
    .values({ userId, secret })
    .onConflict((oc) => oc.column("userId").doUpdateSet({ secret, lastUsedPasscode: null }))
    .execute();
}

/**
 * Records a passcode as used, but only if it differs from the last one, so a code cannot be
 * replayed. Returns false when it was already used.
 */
export async function markPasscodeUsed(db: Db, userId: number, passcode: string): Promise<boolean> {
  const result = await db
    .updateTable("twoFactor")
    .set({ lastUsedPasscode: passcode })
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("lastUsedPasscode", "is", null), eb("lastUsedPasscode", "!=", passcode)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes a user's TOTP enrolment and recovery codes; false when there was none. */
export async function deleteTwoFactor(db: Db, userId: number): Promise<boolean> {
  await db.deleteFrom("twoFactorRecoveryCode").where("userId", "=", userId).execute();
  const result = await db.deleteFrom("twoFactor").where("userId", "=", userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Counts one second-factor attempt, atomically, before the code is checked: false when the user
 * is locked (or not enrolled), so the caller refuses without checking. The attempt that reaches
 * `maxFailures` locks the second factor for `lockMinutes`; an expired lock starts a new count.
 */
export async function beginTwoFactorAttempt(
  db: Db,
  userId: number,
  maxFailures: number,
  lockMinutes: number,
): Promise<boolean> {
  const expired = sql<boolean>`locked_until is not null and locked_until <= now()`;
  const next = sql<number>`case when ${expired} then 1 else failed_attempts + 1 end`;
  const row = await db
    .updateTable("twoFactor")
    .set({
      failedAttempts: next,
      lockedUntil: sql<Date | null>`case when ${next} >= ${maxFailures}
        then now() + ${lockMinutes} * interval '1 minute' else null end`,
    })
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<=", sql<Date>`now()`)]))
    .returning("failedAttempts")
    .executeTakeFirst();
  return row !== undefined;
}

/** Clears the failure count and any lock after a good second factor. */
export async function resetTwoFactorAttempts(db: Db, userId: number): Promise<void> {
  await db
    .updateTable("twoFactor")
    .set({ failedAttempts: 0, lockedUntil: null })
    .where("userId", "=", userId)
    .execute();
}
