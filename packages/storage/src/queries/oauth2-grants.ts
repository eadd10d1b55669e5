import type { User } from "@kiln/domain";
import type { Db } from "../database.js";
import { USER_COLUMNS } from "./user-columns.js";

/** A user's consent to an application. */
export interface OAuth2GrantRecord {
  readonly id: number;
  readonly userId: number;
  readonly applicationId: number;
  readonly counter: number;
  readonly scope: string;
  readonly nonce: string;
}

const GRANT_COLUMNS = ["id", "userId", "applicationId", "counter", "scope", "nonce"] as const;

/** The grant of `userId` to application `applicationId`, if any. */
export async function findGrant(
  db: Db,
  applicationId: number,
  userId: number,
): Promise<OAuth2GrantRecord | undefined> {
  return db
    .selectFrom("oauth2Grant")
    .select(GRANT_COLUMNS)
    .where("applicationId", "=", applicationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

/** A grant by id. */
export async function findGrantById(db: Db, id: number): Promise<OAuth2GrantRecord | undefined> {
  return db.selectFrom("oauth2Grant").select(GRANT_COLUMNS).where("id", "=", id).executeTakeFirst();
}

/** Creates a grant; when a concurrent request created it first, returns that one. */
export async function insertGrant(
  db: Db,
  applicationId: number,
  userId: number,
  scope: string,
): Promise<OAuth2GrantRecord> {
  await db
    .insertInto("oauth2Grant")
    .values({ applicationId, userId, scope })
    .onConflict((oc) => oc.columns(["userId", "applicationId"]).doNothing())
    .execute();
  const grant = await findGrant(db, applicationId, userId);
  if (!grant) throw new Error("grant vanished after insert");
  return grant;
}

/** Sets the OIDC nonce the next ID token carries. */
export async function setNonce(db: Db, grantId: number, nonce: string): Promise<void> {
  await db
    .updateTable("oauth2Grant")
    .set({ nonce, updatedAt: new Date() })
    .where("id", "=", grantId)
    .execute();
}

/**
 * Advances a grant's refresh counter, but only from `from` when given (so two uses of one refresh
 * token cannot both succeed). Returns the new counter, or undefined when it had moved on.
 */
export async function increaseCounter(db: Db, grantId: number, from?: number): Promise<number | undefined> {
  let q = db
    .updateTable("oauth2Grant")
    .set((eb) => ({ counter: eb("counter", "+", 1), updatedAt: new Date() }))
    .where("id", "=", grantId);
  if (from !== undefined) q = q.where("counter", "=", from);
  const row = await q.returning("counter").executeTakeFirst();
  return row?.counter;
}

/** A grant with its user, as access-token authentication needs it. */
export interface GrantOwner {
  readonly grant: OAuth2GrantRecord;
  readonly user: User;
}

const OWNER_COLUMNS = USER_COLUMNS.map((c) => `users.${c}` as const);

/** A grant and its user in one query (every OAuth2-authenticated request). */
export async function findGrantOwner(db: Db, grantId: number): Promise<GrantOwner | undefined> {
  const row = await db
    .selectFrom("oauth2Grant")
    .innerJoin("users", "users.id", "oauth2Grant.userId")
    .select(OWNER_COLUMNS)
    .select([
      "oauth2Grant.id as grantId",
      "oauth2Grant.applicationId as grantApplicationId",
      "oauth2Grant.counter as grantCounter",
      "oauth2Grant.scope as grantScope",
      "oauth2Grant.nonce as grantNonce",
    ])
    .where("oauth2Grant.id", "=", grantId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { grantId: id, grantApplicationId, grantCounter, grantScope, grantNonce, ...user } = row;
  return {
    grant: {
      id,
      userId: user.id,
      applicationId: grantApplicationId,
      counter: grantCounter,
      scope: grantScope,
      nonce: grantNonce,
    },
    user,
  };
}

/** A new authorization code of a grant. */
export interface NewAuthorizationCode {
  readonly grantId: number;
  readonly codeHash: string;
  readonly codeChallenge: string;
  readonly codeChallengeMethod: string;
  readonly redirectUri: string;
  readonly validUntil: Date;
}

/** Stores an authorization code. */
export async function insertCode(db: Db, code: NewAuthorizationCode): Promise<void> {
  await db.insertInto("oauth2AuthorizationCode").values(code).execute();
}

/** An authorization code, read without spending it. */
export async function findCode(db: Db, codeHash: string) {
  return db
    .selectFrom("oauth2AuthorizationCode")
    .select(["id", "grantId", "codeChallenge", "codeChallengeMethod", "redirectUri", "validUntil"])
    .where("codeHash", "=", codeHash)
    .executeTakeFirst();
}

/** Spends a code: deletes it; false when another request spent it first. */
export async function deleteCode(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom("oauth2AuthorizationCode").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The sealed signing key of an algorithm, if generated. */
export async function findSigningKey(db: Db, algorithm: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("oauth2SigningKey")
    .select("privateKey")
    .where("algorithm", "=", algorithm)
    .executeTakeFirst();
  return row?.privateKey;
}

/** Stores a signing key unless one exists already (another process won); returns the stored one. */
export async function insertSigningKey(db: Db, algorithm: string, privateKey: string): Promise<string> {
  await db
    .insertInto("oauth2SigningKey")
    .values({ algorithm, privateKey })
    .onConflict((oc) => oc.column("algorithm").doNothing())
    .execute();
  return (await findSigningKey(db, algorithm)) ?? privateKey;
}

/** Deletes authorization codes that expired before `now`; how many. */
export async function deleteExpiredCodes(db: Db, now: Date = new Date()): Promise<number> {
  const result = await db
    .deleteFrom("oauth2AuthorizationCode")
    .where("validUntil", "<", now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
