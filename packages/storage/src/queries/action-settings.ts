import type { ActionScope, Paged, PageRequest } from "@kiln/domain";
import type { Selectable } from "kysely";
import type { Db } from "../database.js";
import type { ActionRunnerTokenTable, ActionSettingTable } from "../database-actions.js";
import { pageOf } from "./paging.js";

export type { ActionScope } from "@kiln/domain";

/** Which of the two tables: secrets (sealed values) or variables. */
export type ActionSettingKind = "actionSecret" | "actionVariable";

export type ActionSettingRow = Selectable<ActionSettingTable>;
export type ActionRunnerTokenRow = Selectable<ActionRunnerTokenTable>;

function inScope(db: Db, table: ActionSettingKind, scope: ActionScope) {
  const query = db.selectFrom(table);
  return "repoId" in scope
    ? query.where("repoId", "=", scope.repoId).where("ownerId", "is", null)
    : query.where("ownerId", "=", scope.ownerId).where("repoId", "is", null);
}

/** A page of a scope's secrets or variables, by name (Forgejo's order: name, then id). */
export async function listSettings(
  db: Db,
  table: ActionSettingKind,
  scope: ActionScope,
  page: PageRequest,
): Promise<Paged<ActionSettingRow>> {
  return pageOf(inScope(db, table, scope), (q) => q.selectAll().orderBy("name").orderBy("id"), page);
}

/** The secret or variable of a scope by its (upper-cased) name. */
export async function findSetting(
  db: Db,
  table: ActionSettingKind,
  scope: ActionScope,
  name: string,
): Promise<ActionSettingRow | undefined> {
  return inScope(db, table, scope).selectAll().where("name", "=", name).executeTakeFirst();
}

/**
 * Inserts a secret or variable unless the scope has one of that name; answers the new row, or
 * undefined when the name was taken (a concurrent insert included).
 */
export async function insertSetting(
  db: Db,
  table: ActionSettingKind,
  scope: ActionScope,
  name: string,
  data: string,
): Promise<ActionSettingRow | undefined> {
  return db
    .insertInto(table)
    .values({
      ownerId: "ownerId" in scope ? scope.ownerId : null,
      repoId: "repoId" in scope ? scope.repoId : null,
      name,
      data,
    })
    .onConflict((oc) =>
      "repoId" in scope
        ? oc.columns(["repoId", "name"]).where("ownerId", "is", null).doNothing()
        : oc.columns(["ownerId", "name"]).where("repoId", "is", null).doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Changes a secret's or variable's name and value; false when the row is gone. */
export async function updateSetting(
  db: Db,
  table: ActionSettingKind,
  id: number,
  change: { readonly name?: string; readonly data: string },
): Promise<boolean> {
  const result = await db
    .updateTable(table)
    .set({
      ...(change.name !== undefined ? { name: change.name } : {}),
      data: change.data,
      updatedAt: new Date(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a scope's secret or variable by name; false when it has none of that name. */
export async function deleteSetting(
  db: Db,
  table: ActionSettingKind,
  scope: ActionScope,
  name: string,
): Promise<boolean> {
  let query = db.deleteFrom(table).where("name", "=", name);
  query =
    "repoId" in scope
      ? query.where("repoId", "=", scope.repoId).where("ownerId", "is", null)
      : query.where("ownerId", "=", scope.ownerId).where("repoId", "is", null);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The runner registration token of a scope key, if one was made. */
export async function findRunnerToken(db: Db, scopeKey: string): Promise<ActionRunnerTokenRow | undefined> {
  return db.selectFrom("actionRunnerToken").selectAll().where("scopeKey", "=", scopeKey).executeTakeFirst();
}

/** Removes a scope's token (one that can no longer be opened). */
export async function deleteRunnerToken(db: Db, id: number): Promise<void> {
  await db.deleteFrom("actionRunnerToken").where("id", "=", id).execute();
}

/**
 * Stores the first token of a scope; a concurrent request's token wins when it came first, so
 * every caller reads back the one token the scope keeps.
 */
export async function insertRunnerToken(
  db: Db,
  row: {
    readonly scopeKey: string;
    readonly ownerId: number | null;
    readonly repoId: number | null;
    readonly token: string;
    readonly tokenHash: string;
  },
): Promise<ActionRunnerTokenRow> {
  await db
    .insertInto("actionRunnerToken")
    .values(row)
    .onConflict((oc) => oc.column("scopeKey").doNothing())
    .execute();
  return db
    .selectFrom("actionRunnerToken")
    .selectAll()
    .where("scopeKey", "=", row.scopeKey)
    .executeTakeFirstOrThrow();
}
