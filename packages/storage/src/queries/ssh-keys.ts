import type { Paged, PageRequest } from "@kiln/domain";
import type { Db } from "../database.js";
import type { DeployKeyRow, PublicKeyRow } from "../database-keys.js";
import { pageOf } from "./paging.js";

/** Forgejo's KeyType: a user's key and a deploy key. */
export const KEY_TYPE_USER = 1;
export const KEY_TYPE_DEPLOY = 2;

const KEY_COLUMNS = [
  "id",
  "ownerId",
  "name",
  "fingerprint",
  "content",
  "mode",
  "type",
  "verified",
  "createdAt",
  "updatedAt",
] as const;

/** Stores a user's SSH key. A fingerprint already stored, or a name the owner uses, violates a unique key. */
export async function insertUserKey(
  db: Db,
  values: { ownerId: number; name: string; fingerprint: string; content: string },
): Promise<PublicKeyRow> {
  return db
    .insertInto("publicKey")
    .values({ ...values, mode: 2, type: KEY_TYPE_USER })
    .returning(KEY_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The key with this fingerprint, whoever holds it. */
export async function findKeyByFingerprint(db: Db, fingerprint: string): Promise<PublicKeyRow | undefined> {
  return db
    .selectFrom("publicKey")
    .select(KEY_COLUMNS)
    .where("fingerprint", "=", fingerprint)
    .executeTakeFirst();
}

/** A user's key by id (undefined when it is not theirs). */
export async function findUserKey(db: Db, ownerId: number, id: number): Promise<PublicKeyRow | undefined> {
  return db
    .selectFrom("publicKey")
    .select(KEY_COLUMNS)
    .where("id", "=", id)
    .where("ownerId", "=", ownerId)
    .where("type", "=", KEY_TYPE_USER)
    .executeTakeFirst();
}

/** Whether the owner already has a key of this name. */
export async function userKeyNameUsed(db: Db, ownerId: number, name: string): Promise<boolean> {
  const row = await db
    .selectFrom("publicKey")
    .select("id")
    .where("ownerId", "=", ownerId)
    .where("name", "=", name)
    .where("type", "=", KEY_TYPE_USER)
    .executeTakeFirst();
  return row !== undefined;
}

/** One page of a user's keys, oldest first, optionally only the one with a fingerprint. */
export async function listUserKeys(
  db: Db,
  ownerId: number,
  page: PageRequest,
  fingerprint?: string,
): Promise<Paged<PublicKeyRow>> {
  let base = db.selectFrom("publicKey").where("ownerId", "=", ownerId).where("type", "=", KEY_TYPE_USER);
  if (fingerprint !== undefined) base = base.where("fingerprint", "=", fingerprint);
  return pageOf(base, (rows) => rows.select(KEY_COLUMNS).orderBy("id", "asc"), page);
}

/** Every key of the given users (signature verification; a bounded set of committers). */
export async function userKeysOf(db: Db, ownerIds: readonly number[]): Promise<PublicKeyRow[]> {
  if (ownerIds.length === 0) return [];
  return db
    .selectFrom("publicKey")
    .select(KEY_COLUMNS)
    .where("ownerId", "in", [...ownerIds])
    .where("type", "=", KEY_TYPE_USER)
    .orderBy("id", "asc")
    .execute();
}

/** Deletes a user's key; false when the owner has no such key. */
export async function deleteUserKey(db: Db, ownerId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom("publicKey")
    .where("id", "=", id)
    .where("ownerId", "=", ownerId)
    .where("type", "=", KEY_TYPE_USER)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A deploy key with the public key it deploys. */
export interface DeployKeyWithContent extends DeployKeyRow {
  readonly content: string;
}

const DEPLOY_COLUMNS = [
  "deployKey.id",
  "deployKey.keyId",
  "deployKey.repoId",
  "deployKey.name",
  "deployKey.fingerprint",
  "deployKey.mode",
  "deployKey.createdAt",
  "deployKey.updatedAt",
  "publicKey.content",
] as const;

function deployKeys(db: Db) {
  return db
    .selectFrom("deployKey")
    .innerJoin("publicKey", "publicKey.id", "deployKey.keyId")
    .select(DEPLOY_COLUMNS);
}

/**
 * Deploys a key to a repository: the public key row is created on its first deployment and
 * shared by later ones (Forgejo's AddDeployKey). The caller checked the fingerprint is not a
 * user's key; `(key, repo)` and `(repo, name)` are unique keys.
 */
export async function insertDeployKey(
  db: Db,
  values: { repoId: number; name: string; fingerprint: string; content: string; mode: number },
): Promise<DeployKeyWithContent> {
  let key = await findKeyByFingerprint(db, values.fingerprint);
  if (!key) {
    key = await db
      .insertInto("publicKey")
      .values({
        name: values.name,
        fingerprint: values.fingerprint,
        content: values.content,
        mode: values.mode,
        type: KEY_TYPE_DEPLOY,
      })
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
  }
  const row = await db
    .insertInto("deployKey")
    .values({
      keyId: key.id,
      repoId: values.repoId,
      name: values.name,
      fingerprint: key.fingerprint,
      mode: values.mode,
    })
    .returning(["id"])
    .executeTakeFirstOrThrow();
  return deployKeys(db).where("deployKey.id", "=", row.id).executeTakeFirstOrThrow();
}

/** Whether the repository already has a deploy key of this name, or this key. */
export async function deployKeyClash(
  db: Db,
  repoId: number,
  name: string,
  fingerprint: string,
): Promise<"key" | "name" | undefined> {
  const rows = await db
    .selectFrom("deployKey")
    .select(["name", "fingerprint"])
    .where("repoId", "=", repoId)
    .where((eb) => eb.or([eb("name", "=", name), eb("fingerprint", "=", fingerprint)]))
    .execute();
  if (rows.some((r) => r.fingerprint === fingerprint)) return "key";
  if (rows.length > 0) return "name";
  return undefined;
}

/** A repository's deploy key by id. */
export async function findDeployKey(
  db: Db,
  repoId: number,
  id: number,
): Promise<DeployKeyWithContent | undefined> {
  return deployKeys(db)
    .where("deployKey.id", "=", id)
    .where("deployKey.repoId", "=", repoId)
    .executeTakeFirst();
}

/** One page of a repository's deploy keys, filtered as Forgejo's `key_id` and `fingerprint` do. */
export async function listDeployKeys(
  db: Db,
  repoId: number,
  page: PageRequest,
  filter: { keyId?: number; fingerprint?: string } = {},
): Promise<Paged<DeployKeyWithContent>> {
  let base = db
    .selectFrom("deployKey")
    .innerJoin("publicKey", "publicKey.id", "deployKey.keyId")
    .where("deployKey.repoId", "=", repoId);
  if (filter.keyId) base = base.where("deployKey.keyId", "=", filter.keyId);
  if (filter.fingerprint) base = base.where("deployKey.fingerprint", "=", filter.fingerprint);
  return pageOf(base, (rows) => rows.select(DEPLOY_COLUMNS).orderBy("deployKey.id", "asc"), page);
}

/**
 * Removes a deploy key from a repository, and the public key once no repository deploys it
 * (Forgejo's DeleteDeployKey); false when the repository has no such key.
 */
export async function deleteDeployKey(db: Db, repoId: number, id: number): Promise<boolean> {
  const removed = await db
    .deleteFrom("deployKey")
    .where("id", "=", id)
    .where("repoId", "=", repoId)
    .returning("keyId")
    .executeTakeFirst();
  if (!removed) return false;
  const other = await db
    .selectFrom("deployKey")
    .select("id")
    .where("keyId", "=", removed.keyId)
    .executeTakeFirst();
  if (!other) {
    await db
      .deleteFrom("publicKey")
      .where("id", "=", removed.keyId)
      .where("type", "=", KEY_TYPE_DEPLOY)
      .execute();
  }
  return true;
}
