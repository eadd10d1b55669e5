import { sql } from "kysely";
import type { Db, ProtectedTagRow } from "../database.js";

/** A tag protection rule as stored: allowlists by user and team id. */
export interface ProtectedTag {
  readonly id: number;
  readonly repoId: number;
  readonly namePattern: string;
  readonly allowlistUserIds: readonly number[];
  readonly allowlistTeamIds: readonly number[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

function ids(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => typeof id === "number") : [];
}

function toProtectedTag(row: ProtectedTagRow): ProtectedTag {
  return {
    id: row.id,
    repoId: row.repoId,
    namePattern: row.namePattern,
    allowlistUserIds: ids(row.allowlistUserIds),
    allowlistTeamIds: ids(row.allowlistTeamIds),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The tag protection rules of a repository, by id (the order Forgejo lists and checks them in). */
export async function listProtectedTags(db: Db, repoId: number): Promise<ProtectedTag[]> {
  const rows = await db
    .selectFrom("protectedTag")
    .selectAll()
    .where("repoId", "=", repoId)
    .orderBy("id")
    .execute();
  return rows.map(toProtectedTag);
}

/** One rule of the repository by id, or undefined (a rule of another repository is undefined too). */
export async function findProtectedTag(
  db: Db,
  repoId: number,
  id: number,
): Promise<ProtectedTag | undefined> {
  const row = await db
    .selectFrom("protectedTag")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toProtectedTag(row) : undefined;
}

/** The rule of the repository with exactly this pattern, or undefined. */
export async function findProtectedTagByPattern(
  db: Db,
  repoId: number,
  namePattern: string,
): Promise<ProtectedTag | undefined> {
  const row = await db
    .selectFrom("protectedTag")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("namePattern", "=", namePattern)
    .executeTakeFirst();
  return row ? toProtectedTag(row) : undefined;
}

/** What a rule holds besides its identity. */
export interface ProtectedTagValues {
  readonly namePattern: string;
  readonly allowlistUserIds: readonly number[];
  readonly allowlistTeamIds: readonly number[];
}

/** Adds a rule to the repository. */
export async function insertProtectedTag(
  db: Db,
  repoId: number,
  values: ProtectedTagValues,
): Promise<ProtectedTag> {
  const row = await db
    .insertInto("protectedTag")
    .values({
      repoId,
      namePattern: values.namePattern,
      allowlistUserIds: JSON.stringify(values.allowlistUserIds),
      allowlistTeamIds: JSON.stringify(values.allowlistTeamIds),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toProtectedTag(row);
}

/** Replaces a rule's pattern and allowlists; undefined when the repository has no such rule. */
export async function updateProtectedTag(
  db: Db,
  repoId: number,
  id: number,
  values: ProtectedTagValues,
): Promise<ProtectedTag | undefined> {
  const row = await db
    .updateTable("protectedTag")
    .set({
      namePattern: values.namePattern,
      allowlistUserIds: JSON.stringify(values.allowlistUserIds),
      allowlistTeamIds: JSON.stringify(values.allowlistTeamIds),
      updatedAt: sql<Date>`now()`,
    })
    .where("repoId", "=", repoId)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row ? toProtectedTag(row) : undefined;
}

/** Deletes a rule of the repository; false when there is none with that id. */
export async function deleteProtectedTag(db: Db, repoId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom("protectedTag")
    .where("repoId", "=", repoId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
