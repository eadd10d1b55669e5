import type { Db } from "../database.js";

/** Replaces a user's TOTP recovery codes with new ones (hashes). */
export async function replaceRecoveryCodes(
  db: Db,
  userId: number,
  codeHashes: readonly string[],
): Promise<void> {
  await db.deleteFrom("twoFactorRecoveryCode").where("userId", "=", userId).execute();
  if (codeHashes.length === 0) return;
  await db
    .insertInto("twoFactorRecoveryCode")
    .values(codeHashes.map((codeHash) => ({ userId, codeHash, usedAt: null })))
    .execute();
}

/** Spends an unused recovery code; false when there is no such unused code. */
export async function useRecoveryCode(db: Db, userId: number, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable("twoFactorRecoveryCode")
    .set({ usedAt: new Date() })
    .where("userId", "=", userId)
    .where("codeHash", "=", codeHash)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How many unused recovery codes a user has left. */
export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("twoFactorRecoveryCode")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("userId", "=", userId)
    .where("usedAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
