import type { OAuth2ApplicationRecord, Paged, PageRequest } from "@kiln/domain";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";

export type { OAuth2ApplicationRecord } from "@kiln/domain";

/** What creating or updating an application sets. */
export interface OAuth2ApplicationValues {
  readonly name: string;
  readonly clientSecretHash: string;
  readonly confidentialClient: boolean;
  readonly redirectUris: readonly string[];
}

const COLUMNS = [
  "id",
  "uid",
  "name",
  "clientId",
  "clientSecretHash",
  "confidentialClient",
  "redirectUris",
  "createdAt",
] as const;

type Row = { redirectUris: string } & Omit<OAuth2ApplicationRecord, "redirectUris">;

function decode(row: Row): OAuth2ApplicationRecord {
  return { ...row, redirectUris: JSON.parse(row.redirectUris) as string[] };
}

/** Stores a new application of user `uid`. */
export async function insertApplication(
  db: Db,
  uid: number,
  clientId: string,
  values: OAuth2ApplicationValues,
): Promise<OAuth2ApplicationRecord> {
  const row = await db
    .insertInto("oauth2Application")
    .values({ uid, clientId, ...values, redirectUris: JSON.stringify(values.redirectUris) })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return decode(row);
}

/** An application by id, only when it belongs to `uid`. */
export async function findApplicationOf(
  db: Db,
  uid: number,
  id: number,
): Promise<OAuth2ApplicationRecord | undefined> {
  const row = await db
    .selectFrom("oauth2Application")
    .select(COLUMNS)
    .where("uid", "=", uid)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && decode(row);
}

/** An application by its client id. */
export async function findApplicationByClientId(
  db: Db,
  clientId: string,
): Promise<OAuth2ApplicationRecord | undefined> {
  const row = await db
    .selectFrom("oauth2Application")
    .select(COLUMNS)
    .where("clientId", "=", clientId)
    .executeTakeFirst();
  return row && decode(row);
}

/** One page of a user's applications, oldest first. */
export async function listApplications(
  db: Db,
  uid: number,
  page: PageRequest,
): Promise<Paged<OAuth2ApplicationRecord>> {
  const base = db.selectFrom("oauth2Application").where("uid", "=", uid);
  const result = await pageOf(base, (q) => q.select(COLUMNS).orderBy("id", "asc"), page);
  return { items: result.items.map(decode), total: result.total };
}

/** Updates a user's application; undefined when `uid` has no application `id`. */
export async function updateApplication(
  db: Db,
  uid: number,
  id: number,
  values: OAuth2ApplicationValues,
): Promise<OAuth2ApplicationRecord | undefined> {
  const row = await db
    .updateTable("oauth2Application")
    .set({ ...values, redirectUris: JSON.stringify(values.redirectUris), updatedAt: new Date() })
    .where("uid", "=", uid)
    .where("id", "=", id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && decode(row);
}

/** Deletes a user's application (its grants and codes go with it); the ids of its grants, or undefined. */
export async function deleteApplication(db: Db, uid: number, id: number): Promise<number[] | undefined> {
  const grants = await db.selectFrom("oauth2Grant").select("id").where("applicationId", "=", id).execute();
  const result = await db
    .deleteFrom("oauth2Application")
    .where("uid", "=", uid)
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n ? grants.map((g) => g.id) : undefined;
}
