import type { Paged, PageRequest, StopwatchEntry, TrackedTimeEntry } from "@kiln/domain";
import type { Db } from "../database.js";
import { issueReadableBy } from "./issues.js";
import { paged } from "./paging.js";
import type { RepoViewer } from "./repo-visibility.js";

export type { StopwatchEntry, TrackedTimeEntry } from "@kiln/domain";

/** Which tracked times a list shows (deleted ones never). */
export interface TimeFilter {
  readonly issueId?: number | undefined;
  readonly repoId?: number | undefined;
  readonly userId?: number | undefined;
  /**
   * Only times on issues this viewer may read (a user's times across repositories): the issues
   * (or pull requests) unit of a repository it sees, {@link issueReadableBy}.
   */
  readonly visibleTo?: RepoViewer | undefined;
  readonly since?: Date | undefined;
  readonly before?: Date | undefined;
}

const COLUMNS = [
  "trackedTime.id",
  "trackedTime.issueId",
  "trackedTime.userId",
  "trackedTime.time",
  "trackedTime.deleted",
  "trackedTime.createdAt",
  "issue.repoId",
  "issue.index as issueIndex",
] as const;

export async function insertTime(
  db: Db,
  time: { issueId: number; userId: number; seconds: number; createdAt: Date },
): Promise<TrackedTimeEntry> {
  const { id } = await db
    .insertInto("trackedTime")
    .values({ issueId: time.issueId, userId: time.userId, time: time.seconds, createdAt: time.createdAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await findTime(db, id)) as TrackedTimeEntry;
}

export async function findTime(db: Db, id: number): Promise<TrackedTimeEntry | undefined> {
  return db
    .selectFrom("trackedTime")
    .innerJoin("issue", "issue.id", "trackedTime.issueId")
    .select(COLUMNS)
    .where("trackedTime.id", "=", id)
    .executeTakeFirst();
}

/** Tracked times by id, deleted ones included (timeline events keep pointing at them). */
export async function timesByIds(db: Db, ids: readonly number[]): Promise<TrackedTimeEntry[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("trackedTime")
    .innerJoin("issue", "issue.id", "trackedTime.issueId")
    .select(COLUMNS)
    .where("trackedTime.id", "in", [...ids])
    .execute();
}

/** Tracked times in creation order; a page of them, or all when `page` is undefined, with the total. */
export async function listTimes(
  db: Db,
  filter: TimeFilter,
  page: PageRequest | undefined,
): Promise<Paged<TrackedTimeEntry>> {
  let base = db
    .selectFrom("trackedTime")
    .innerJoin("issue", "issue.id", "trackedTime.issueId")
    .where("trackedTime.deleted", "=", false);
  if (filter.issueId !== undefined) base = base.where("trackedTime.issueId", "=", filter.issueId);
  if (filter.repoId !== undefined) base = base.where("issue.repoId", "=", filter.repoId);
  if (filter.userId !== undefined) base = base.where("trackedTime.userId", "=", filter.userId);
  if (filter.since) base = base.where("trackedTime.createdAt", ">=", filter.since);
  if (filter.before) base = base.where("trackedTime.createdAt", "<=", filter.before);
  if (filter.visibleTo !== undefined) base = base.where(issueReadableBy(filter.visibleTo));
  const rows = base.select(COLUMNS).orderBy("trackedTime.createdAt").orderBy("trackedTime.id");
  const count = base.select((eb) => eb.fn.countAll().as("count"));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}

/** Marks times deleted (they stay for the record, as Forgejo keeps them); answers how many. */
export async function deleteTimes(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable("trackedTime")
    .set({ deleted: true })
    .where("id", "in", [...ids])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// ---- stopwatches ----

function stopwatches(db: Db) {
  return db
    .selectFrom("stopwatch")
    .innerJoin("issue", "issue.id", "stopwatch.issueId")
    .innerJoin("repository", "repository.id", "issue.repoId")
    .select([
      "stopwatch.id",
      "stopwatch.issueId",
      "stopwatch.userId",
      "stopwatch.createdAt",
      "issue.index as issueIndex",
      "issue.title as issueTitle",
      "repository.id as repoId",
      "repository.name as repoName",
      "repository.ownerName as repoOwnerName",
    ]);
}

/** The user's running stopwatch (a user runs at most one). */
export async function findUserStopwatch(db: Db, userId: number): Promise<StopwatchEntry | undefined> {
  return stopwatches(db).where("stopwatch.userId", "=", userId).executeTakeFirst();
}

export async function startStopwatch(db: Db, issueId: number, userId: number, at: Date): Promise<void> {
  await db.insertInto("stopwatch").values({ issueId, userId, createdAt: at }).execute();
}

export async function deleteStopwatch(db: Db, id: number): Promise<void> {
  await db.deleteFrom("stopwatch").where("id", "=", id).execute();
}

/**
 * A user's stopwatches on issues the user may still read ({@link issueReadableBy}); a page, or all
 * when `page` is undefined.
 */
export async function listUserStopwatches(
  db: Db,
  viewer: NonNullable<RepoViewer>,
  page: PageRequest | undefined,
): Promise<Paged<StopwatchEntry>> {
  const rows = stopwatches(db)
    .where("stopwatch.userId", "=", viewer.id)
    .where(issueReadableBy(viewer))
    .orderBy("stopwatch.id");
  const count = db
    .selectFrom("stopwatch")
    .innerJoin("issue", "issue.id", "stopwatch.issueId")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("stopwatch.userId", "=", viewer.id)
    .where(issueReadableBy(viewer));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}
