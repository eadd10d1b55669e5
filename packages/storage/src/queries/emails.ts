import type { EmailAddress } from "@kiln/domain";
import type { Db } from "../database.js";

const EMAIL_COLUMNS = ["id", "userId", "email", "isActivated", "isPrimary"] as const;

/** Adds an address to a user. A taken address violates the unique index on lower_email. */
export async function insertEmail(
  db: Db,
  values: { userId: number; email: string; isPrimary: boolean; isActivated?: boolean },
): Promise<EmailAddress> {
  return db
    .insertInto("emailAddress")
    .values({ ...values, lowerEmail: values.email.toLowerCase() })
    .returning(EMAIL_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Every address of a user, primary first. */
export async function listEmails(db: Db, userId: number): Promise<EmailAddress[]> {
  return db
    .selectFrom("emailAddress")
    .select(EMAIL_COLUMNS)
    .where("userId", "=", userId)
    .orderBy("isPrimary", "desc")
    .orderBy("id", "asc")
    .execute();
}

/** The address record for an e-mail (case-insensitive), whoever owns it. */
export async function findEmail(db: Db, email: string): Promise<EmailAddress | undefined> {
  if (email.includes("\0")) return undefined;
  return db
    .selectFrom("emailAddress")
    .select(EMAIL_COLUMNS)
    .where("lowerEmail", "=", email.toLowerCase())
    .executeTakeFirst();
}

/** Removes non-primary addresses of a user; returns how many were removed. */
export async function deleteEmails(db: Db, userId: number, emails: readonly string[]): Promise<number> {
  if (emails.length === 0) return 0;
  const result = await db
    .deleteFrom("emailAddress")
    .where("userId", "=", userId)
    .where("isPrimary", "=", false)
    .where(
      "lowerEmail",
      "in",
      emails.map((e) => e.toLowerCase()),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Makes `email` the user's primary address (it must already be one of theirs). */
export async function setPrimaryEmail(db: Db, userId: number, email: string): Promise<void> {
  await db.updateTable("emailAddress").set({ isPrimary: false }).where("userId", "=", userId).execute();
  await db
    .updateTable("emailAddress")
    .set({ isPrimary: true })
    .where("userId", "=", userId)
    .where("lowerEmail", "=", email.toLowerCase())
    .execute();
}
