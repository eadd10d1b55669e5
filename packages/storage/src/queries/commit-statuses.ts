import type { Paged, PageRequest } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { isUniqueViolation } from "../errors.js";
import { paged } from "./paging.js";

/** A stored commit status. */
export interface CommitStatusRow {
  readonly id: number;
  readonly repoId: number;
  readonly sha: string;
  readonly index: number;
  readonly state: string;
  readonly targetUrl: string;
  readonly description: string;
  readonly context: string;
  readonly creatorId: number | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const COLUMNS = [
  "id",
  "repoId",
  "sha",
  "index",
  "state",
  "targetUrl",
  "description",
  "context",
  "creatorId",
  "createdAt",
  "updatedAt",
] as const;

/** What a new status says. */
export interface NewCommitStatus {
  readonly repoId: number;
  readonly sha: string;
  readonly state: string;
  readonly targetUrl: string;
  readonly description: string;
  readonly context: string;
  readonly creatorId: number;
}

/**
 * Stores a status as the next `index` of its commit. Two reports racing for one index: the
 * loser's insert violates the unique key and is retried with the next number.
 */
export async function insertCommitStatus(db: Db, status: NewCommitStatus): Promise<CommitStatusRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await db
        .insertInto("commitStatus")
        .values({
          ...status,
          index: sql<number>`(select coalesce(max(cs.index), 0) + 1 from commit_status cs where cs.repo_id = ${status.repoId} and cs.sha = ${status.sha})`,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return normalize(row);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** A page of a commit's statuses, filtered by state, in Forgejo's orders. */
export async function listCommitStatuses(
  db: Db,
  repoId: number,
  sha: string,
  options: { readonly sort?: string; readonly state?: string },
  page: PageRequest,
): Promise<Paged<CommitStatusRow>> {
  const base = db
    .selectFrom("commitStatus")
    .where("repoId", "=", repoId)
    .where("sha", "=", sha)
    .$if(options.state !== undefined, (qb) => qb.where("state", "=", options.state ?? ""));
  let rows = base.select(COLUMNS);
  switch (options.sort) {
    case "oldest":
      rows = rows.orderBy("createdAt", "asc").orderBy("id", "asc");
      break;
    case "recentupdate":
      rows = rows.orderBy("updatedAt", "desc").orderBy("id", "desc");
      break;
    case "leastupdate":
      rows = rows.orderBy("updatedAt", "asc").orderBy("id", "asc");
      break;
    case "leastindex":
      rows = rows.orderBy("index", "asc");
      break;
    case "highestindex":
      rows = rows.orderBy("index", "desc");
      break;
    default:
      rows = rows.orderBy("createdAt", "desc").orderBy("id", "desc");
  }
  const result = await paged(
    rows,
    base.select((eb) => eb.fn.countAll().as("count")),
    page,
  );
  return { ...result, items: result.items.map(normalize) };
}

/** The latest status of each context of a commit (by context name), and how many contexts it has. */
export async function latestCommitStatuses(
  db: Db,
  repoId: number,
  sha: string,
  page: PageRequest,
): Promise<Paged<CommitStatusRow>> {
  const latest = db
    .selectFrom("commitStatus")
    .where("repoId", "=", repoId)
    .where("sha", "=", sha)
    .select((eb) => eb.fn.max("index").as("index"))
    .groupBy("context");
  const rows = db
    .selectFrom("commitStatus")
    .select(COLUMNS)
    .where("repoId", "=", repoId)
    .where("sha", "=", sha)
    .where("index", "in", latest)
    .orderBy("context")
    .orderBy("id");
  const count = db.selectFrom(latest.as("contexts")).select((eb) => eb.fn.countAll().as("count"));
  const result = await paged(rows, count, page);
  return { ...result, items: result.items.map(normalize) };
}

/** bigint columns come back as strings from `pg`. */
function normalize(row: CommitStatusRow): CommitStatusRow {
  return {
    ...row,
    id: Number(row.id),
    repoId: Number(row.repoId),
    index: Number(row.index),
    creatorId: row.creatorId === null ? null : Number(row.creatorId),
  };
}
