import type { Db } from "../database.js";

/** An activated e-mail address and the account that holds it. */
export interface ActivatedEmail {
  readonly userId: number;
  readonly userName: string;
  readonly email: string;
  readonly lowerEmail: string;
}

/**
 * The activated addresses among `emails` (any case) and the accounts holding them (Forgejo's
 * GetUserByEmail, for every committer of a list of commits at once).
 */
export async function activatedEmailOwners(db: Db, emails: readonly string[]): Promise<ActivatedEmail[]> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter((e) => e !== "" && !e.includes("\0")))];
  if (lower.length === 0) return [];
  return db
    .selectFrom("emailAddress")
    .innerJoin("users", "users.id", "emailAddress.userId")
    .select([
      "emailAddress.userId",
      "users.name as userName",
      "emailAddress.email",
      "emailAddress.lowerEmail",
    ])
    .where("emailAddress.lowerEmail", "in", lower)
    .where("emailAddress.isActivated", "=", true)
    .execute();
}

/** Every activated address of the given accounts, with their names. */
export async function activatedEmailsOf(db: Db, userIds: readonly number[]): Promise<ActivatedEmail[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom("emailAddress")
    .innerJoin("users", "users.id", "emailAddress.userId")
    .select([
      "emailAddress.userId",
      "users.name as userName",
      "emailAddress.email",
      "emailAddress.lowerEmail",
    ])
    .where("emailAddress.userId", "in", [...new Set(userIds)])
    .where("emailAddress.isActivated", "=", true)
    .orderBy("emailAddress.id", "asc")
    .execute();
}

/** The names of the given accounts, by id. */
export async function accountNames(db: Db, userIds: readonly number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "name"])
    .where("id", "in", [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
