import type { Paged, PageRequest } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { MirrorRow, PushMirrorRow } from "../database-mirrors.js";
import { pageOf } from "./paging.js";

/** A new pull mirror row. */
export interface NewMirror {
  readonly repoId: number;
  readonly remoteAddress: string;
  readonly credentials: string;
  readonly intervalMs: number;
  readonly nextUpdateAt: Date | null;
}

/** What a sync or an edit changes of a pull mirror. */
export interface MirrorChanges {
  readonly intervalMs?: number;
  readonly enablePrune?: boolean;
  readonly updatedAt?: Date;
  readonly nextUpdateAt?: Date | null;
  readonly lastError?: string;
}

/** Records the pull side of a mirror repository. */
export async function insertMirror(db: Db, values: NewMirror): Promise<MirrorRow> {
  return db.insertInto("mirror").values(values).returningAll().executeTakeFirstOrThrow();
}

/** The pull mirror of a repository, if it is one. */
export async function findMirror(db: Db, repoId: number): Promise<MirrorRow | undefined> {
  return db.selectFrom("mirror").selectAll().where("repoId", "=", repoId).executeTakeFirst();
}

/** The pull mirrors among these repositories, by repository id (one query for a whole list). */
export async function mirrorsOf(db: Db, repoIds: readonly number[]): Promise<Map<number, MirrorRow>> {
  if (repoIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("mirror")
    .selectAll()
    .where("repoId", "in", [...repoIds])
    .execute();
  return new Map(rows.map((row) => [row.repoId, row]));
}

/** Changes a pull mirror; undefined when there is none. */
export async function updateMirror(
  db: Db,
  repoId: number,
  changes: MirrorChanges,
): Promise<MirrorRow | undefined> {
  return db.updateTable("mirror").set(changes).where("repoId", "=", repoId).returningAll().executeTakeFirst();
}

/** Pull mirrors whose next sync is due at `now`, the longest overdue first. */
export async function duePullMirrors(db: Db, now: Date, limit: number): Promise<MirrorRow[]> {
  return db
    .selectFrom("mirror")
    .selectAll()
    .where("nextUpdateAt", "is not", null)
    .where("nextUpdateAt", "<=", now)
    .orderBy("nextUpdateAt")
    .limit(limit)
    .execute();
}

/** A new push mirror row. */
export interface NewPushMirror {
  readonly repoId: number;
  readonly remoteName: string;
  readonly remoteAddress: string;
  readonly credentials: string;
  readonly intervalMs: number;
  readonly syncOnCommit: boolean;
}

/** What a sync changes of a push mirror. */
export interface PushMirrorChanges {
  readonly lastUpdateAt?: Date;
  readonly lastError?: string;
}

export async function insertPushMirror(db: Db, values: NewPushMirror): Promise<PushMirrorRow> {
  return db.insertInto("pushMirror").values(values).returningAll().executeTakeFirstOrThrow();
}

/** One page of a repository's push mirrors, oldest first. */
export async function listPushMirrors(
  db: Db,
  repoId: number,
  page: PageRequest,
): Promise<Paged<PushMirrorRow>> {
  const base = db.selectFrom("pushMirror").where("repoId", "=", repoId);
  return pageOf(base, (q) => q.selectAll().orderBy("id"), page);
}

/** Every push mirror of a repository, oldest first (few: they are created one by one by admins). */
export async function allPushMirrors(db: Db, repoId: number): Promise<PushMirrorRow[]> {
  return db.selectFrom("pushMirror").selectAll().where("repoId", "=", repoId).orderBy("id").execute();
}

export async function findPushMirror(
  db: Db,
  repoId: number,
  remoteName: string,
): Promise<PushMirrorRow | undefined> {
  return db
    .selectFrom("pushMirror")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("remoteName", "=", remoteName)
    .executeTakeFirst();
}

export async function findPushMirrorById(db: Db, id: number): Promise<PushMirrorRow | undefined> {
  return db.selectFrom("pushMirror").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Deletes a push mirror by name; whether there was one. */
export async function deletePushMirror(db: Db, repoId: number, remoteName: string): Promise<boolean> {
  const result = await db
    .deleteFrom("pushMirror")
    .where("repoId", "=", repoId)
    .where("remoteName", "=", remoteName)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updatePushMirror(
  db: Db,
  id: number,
  changes: PushMirrorChanges,
): Promise<PushMirrorRow | undefined> {
  return db.updateTable("pushMirror").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

/** A repository's push mirrors that sync after each push. */
export async function syncOnCommitMirrors(db: Db, repoId: number): Promise<PushMirrorRow[]> {
  return db
    .selectFrom("pushMirror")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("syncOnCommit", "=", true)
    .orderBy("id")
    .execute();
}

/** Go's largest Duration in milliseconds: no stored interval is read as longer (PostgreSQL's interval range). */
const MAX_INTERVAL_MS = 9_223_372_036_854;

/**
 * Push mirrors with an interval whose last sync is at least that long ago at `now` (never synced:
 * due at once), the longest overdue first, as Forgejo's PushMirrorsIterate. An out-of-range
 * interval left by an older release is capped, so one row cannot make the query fail for all.
 */
export async function duePushMirrors(db: Db, now: Date, limit: number): Promise<PushMirrorRow[]> {
  const due = sql<Date>`coalesce(last_update_at, created_at) + least(interval_ms, ${sql.lit(MAX_INTERVAL_MS)}) * interval '1 millisecond'`;
  return db
    .selectFrom("pushMirror")
    .selectAll()
    .where("intervalMs", ">", 0)
    .where(sql<boolean>`(last_update_at is null or ${due} <= ${now})`)
    .orderBy(sql`coalesce(last_update_at, created_at)`)
    .limit(limit)
    .execute();
}
