import type { Paged, PageRequest } from "@kiln/domain";
import type { Db } from "../database.js";
import type { GpgKeyRow } from "../database-keys.js";
import { pageOf } from "./paging.js";

const GPG_COLUMNS = [
  "id",
  "ownerId",
  "keyId",
  "primaryKeyId",
  "content",
  "createdAt",
  "expiresAt",
  "addedAt",
  "emails",
  "verified",
  "canSign",
  "canEncryptComms",
  "canEncryptStorage",
  "canCertify",
] as const;

/** A GPG key to store: the primary key's row, its subkeys' rows and its armored text. */
export interface NewGpgKey {
  readonly ownerId: number;
  readonly keyId: string;
  readonly content: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly emails: string;
  readonly verified: boolean;
  readonly canSign: boolean;
  readonly canEncryptComms: boolean;
  readonly canEncryptStorage: boolean;
  readonly canCertify: boolean;
  readonly armored: string;
  readonly subkeys: readonly Omit<NewGpgKey, "subkeys" | "armored" | "emails" | "verified">[];
}

/** A primary key with its subkeys. */
export interface GpgKeyWithSubkeys extends GpgKeyRow {
  readonly subkeys: readonly GpgKeyRow[];
}

/** Stores a primary key, its subkeys and its armored text; a primary key id already stored violates a unique key. */
export async function insertGpgKey(db: Db, key: NewGpgKey): Promise<GpgKeyWithSubkeys> {
  const { subkeys, armored, ...primary } = key;
  const row = await db
    .insertInto("gpgKey")
    .values({ ...primary, primaryKeyId: null })
    .returning(GPG_COLUMNS)
    .executeTakeFirstOrThrow();
  const subRows =
    subkeys.length === 0
      ? []
      : await db
          .insertInto("gpgKey")
          .values(subkeys.map((s) => ({ ...s, primaryKeyId: key.keyId })))
          .returning(GPG_COLUMNS)
          .execute();
  await db
    .insertInto("gpgKeyImport")
    .values({ keyId: key.keyId, content: armored })
    .onConflict((oc) => oc.column("keyId").doUpdateSet({ content: armored }))
    .execute();
  return { ...row, subkeys: subRows.sort((a, b) => a.id - b.id) };
}

/** Whether a primary key with this id is stored (for anyone). */
export async function primaryKeyIdUsed(db: Db, keyId: string): Promise<boolean> {
  const row = await db
    .selectFrom("gpgKey")
    .select("id")
    .where("keyId", "=", keyId)
    .where("primaryKeyId", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

async function withSubkeys(db: Db, rows: readonly GpgKeyRow[]): Promise<GpgKeyWithSubkeys[]> {
  if (rows.length === 0) return [];
  const subs = await db
    .selectFrom("gpgKey")
    .select(GPG_COLUMNS)
    .where(
      "primaryKeyId",
      "in",
      rows.map((r) => r.keyId),
    )
    .orderBy("id", "asc")
    .execute();
  return rows.map((r) => ({
    ...r,
    subkeys: subs.filter((s) => s.primaryKeyId === r.keyId && s.ownerId === r.ownerId),
  }));
}

/** One page of a user's primary keys with their subkeys, oldest first. */
export async function listGpgKeys(
  db: Db,
  ownerId: number,
  page: PageRequest,
): Promise<Paged<GpgKeyWithSubkeys>> {
  const base = db.selectFrom("gpgKey").where("ownerId", "=", ownerId).where("primaryKeyId", "is", null);
  const found = await pageOf(base, (q) => q.select(GPG_COLUMNS).orderBy("id", "asc"), page);
  return { items: await withSubkeys(db, found.items), total: found.total };
}

/** A user's primary key by row id, with its subkeys. */
export async function findGpgKey(
  db: Db,
  ownerId: number,
  id: number,
): Promise<GpgKeyWithSubkeys | undefined> {
  const row = await db
    .selectFrom("gpgKey")
    .select(GPG_COLUMNS)
    .where("id", "=", id)
    .where("ownerId", "=", ownerId)
    .where("primaryKeyId", "is", null)
    .executeTakeFirst();
  return row ? (await withSubkeys(db, [row]))[0] : undefined;
}

/** A user's primary key by its 16-hex key id, with its subkeys. */
export async function findGpgKeyByKeyId(
  db: Db,
  ownerId: number,
  keyId: string,
): Promise<GpgKeyWithSubkeys | undefined> {
  const row = await db
    .selectFrom("gpgKey")
    .select(GPG_COLUMNS)
    .where("keyId", "=", keyId)
    .where("ownerId", "=", ownerId)
    .where("primaryKeyId", "is", null)
    .executeTakeFirst();
  return row ? (await withSubkeys(db, [row]))[0] : undefined;
}

/** Marks a primary key verified (its owner proved holding it by signing the token). */
export async function markGpgKeyVerified(db: Db, id: number): Promise<void> {
  await db.updateTable("gpgKey").set({ verified: true }).where("id", "=", id).execute();
}

/** Deletes a user's primary key with its subkeys and armored text; false when they have no such key. */
export async function deleteGpgKey(db: Db, ownerId: number, id: number): Promise<boolean> {
  const row = await db
    .deleteFrom("gpgKey")
    .where("id", "=", id)
    .where("ownerId", "=", ownerId)
    .where("primaryKeyId", "is", null)
    .returning("keyId")
    .executeTakeFirst();
  if (!row) return false;
  await db
    .deleteFrom("gpgKey")
    .where("primaryKeyId", "=", row.keyId)
    .where("ownerId", "=", ownerId)
    .execute();
  await db.deleteFrom("gpgKeyImport").where("keyId", "=", row.keyId).execute();
  return true;
}

/** A primary key as signature verification reads it: its row, subkeys and armored text. */
export interface GpgKeyForVerification extends GpgKeyWithSubkeys {
  readonly armored: string;
}

/**
 * The primary keys (with subkeys and armored text) that are owned by one of `ownerIds` or hold
 * one of `keyIds` as primary or subkey id: everything the verification of a list of commits
 * needs, in two queries whatever the list's length.
 */
export async function gpgKeysForVerification(
  db: Db,
  ownerIds: readonly number[],
  keyIds: readonly string[],
): Promise<GpgKeyForVerification[]> {
  if (ownerIds.length === 0 && keyIds.length === 0) return [];
  const primaries = await db
    .selectFrom("gpgKey")
    .select(GPG_COLUMNS)
    .where("primaryKeyId", "is", null)
    .where((eb) => {
      const ors = [];
      if (ownerIds.length > 0) ors.push(eb("ownerId", "in", [...ownerIds]));
      if (keyIds.length > 0) {
        ors.push(eb("keyId", "in", [...keyIds]));
        ors.push(
          eb(
            "keyId",
            "in",
            eb
              .selectFrom("gpgKey as sub")
              .select("sub.primaryKeyId")
              .where("sub.keyId", "in", [...keyIds])
              .$narrowType<{
                primaryKeyId: string;
              }>(),
          ),
        );
      }
      return eb.or(ors);
    })
    .orderBy("id", "asc")
    .execute();
  const full = await withSubkeys(db, primaries);
  if (full.length === 0) return [];
  const armored = await db
    .selectFrom("gpgKeyImport")
    .select(["keyId", "content"])
    .where(
      "keyId",
      "in",
      full.map((k) => k.keyId),
    )
    .execute();
  const byId = new Map(armored.map((a) => [a.keyId, a.content]));
  return full.map((k) => ({ ...k, armored: byId.get(k.keyId) ?? "" }));
}
