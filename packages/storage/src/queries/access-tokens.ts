import type { AccessToken, Paged, PageRequest, User } from "@kiln/domain";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";
import { USER_COLUMNS } from "./user-columns.js";

const TOKEN_COLUMNS = [
  "id",
  "userId",
  "name",
  "tokenHash",
  "tokenLastEight",
  "scope",
  "createdAt",
  "updatedAt",
] as const;

/** Stores a token. A name already used by the owner violates the (user_id, name) unique key. */
export async function insertAccessToken(
  db: Db,
  values: { userId: number; name: string; tokenHash: string; tokenLastEight: string; scope: string },
): Promise<AccessToken> {
  return db.insertInto("accessToken").values(values).returning(TOKEN_COLUMNS).executeTakeFirstOrThrow();
}

/** A token as authentication needs it: its id and scope, and the account that owns it. */
export interface TokenOwner {
  readonly tokenId: number;
  readonly scope: string;
  readonly user: User;
}

const OWNER_COLUMNS = USER_COLUMNS.map((c) => `users.${c}` as const);

/**
 * The token whose secret hashes to `tokenHash` with its owner, in one query (the hot path of
 * every token-authenticated request), or undefined.
 */
export async function findTokenOwnerByHash(db: Db, tokenHash: string): Promise<TokenOwner | undefined> {
  const row = await db
    .selectFrom("accessToken")
    .innerJoin("users", "users.id", "accessToken.userId")
    .select(OWNER_COLUMNS)
    .select(["accessToken.id as tokenId", "accessToken.scope as tokenScope"])
    .where("accessToken.tokenHash", "=", tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { tokenId, tokenScope, ...user } = row;
  return { tokenId, scope: tokenScope, user };
}

/** A user's token by id or by exact name. */
export async function findAccessToken(
  db: Db,
  userId: number,
  key: { id: number } | { name: string },
): Promise<AccessToken | undefined> {
  let q = db.selectFrom("accessToken").select(TOKEN_COLUMNS).where("userId", "=", userId);
  q = "id" in key ? q.where("id", "=", key.id) : q.where("name", "=", key.name);
  return q.executeTakeFirst();
}

/** One page of a user's tokens, oldest first. */
export async function listAccessTokens(
  db: Db,
  userId: number,
  page: PageRequest,
): Promise<Paged<AccessToken>> {
  const base = db.selectFrom("accessToken").where("userId", "=", userId);
  return pageOf(base, (rows) => rows.select(TOKEN_COLUMNS).orderBy("id", "asc"), page);
}

/** Deletes one of a user's tokens; false when there was none. */
export async function deleteAccessToken(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom("accessToken")
    .where("userId", "=", userId)
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
