import type { Paged, PageRequest } from "@kiln/domain";
import type { Insertable, Selectable } from "kysely";
import type { Db } from "../database.js";
import type { ActionArtifactTable } from "../database-actions.js";
import { pageOf } from "./paging.js";
import type { UsageCounters } from "./quota-usage.js";
import type { UsageSource } from "./usage-source.js";

/** A stored Actions artifact. */
export type ArtifactRow = Selectable<ActionArtifactTable>;
/** A new artifact's row. */
export type NewArtifact = Insertable<ActionArtifactTable>;

/** Which artifacts of a repository a list shows. */
export interface ArtifactFilter {
  /** Only artifacts with exactly this name (Gitea's `name`). */
  readonly name?: string;
  /** Only artifacts of this run. */
  readonly runId?: number;
}

/**
 * Inserts an artifact; undefined when the run already has one by that name (the unique
 * constraint decides, so two concurrent uploads cannot both win).
 */
export async function insertArtifact(db: Db, row: NewArtifact): Promise<ArtifactRow | undefined> {
  return db
    .insertInto("actionArtifact")
    .values(row)
    .onConflict((oc) => oc.columns(["repoId", "runId", "name"]).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** An artifact of a repository that has not expired at `now`. */
export async function findArtifact(
  db: Db,
  repoId: number,
  id: number,
  now: Date,
): Promise<ArtifactRow | undefined> {
  return db
    .selectFrom("actionArtifact")
    .selectAll()
    .where("id", "=", id)
    .where("repoId", "=", repoId)
    .where("expiresAt", ">", now)
    .executeTakeFirst();
}

/** A page of a repository's artifacts that have not expired at `now`, oldest first, with the total. */
export async function listArtifacts(
  db: Db,
  repoId: number,
  filter: ArtifactFilter,
  page: PageRequest,
  now: Date,
): Promise<Paged<ArtifactRow>> {
  let base = db.selectFrom("actionArtifact").where("repoId", "=", repoId).where("expiresAt", ">", now);
  if (filter.name !== undefined) base = base.where("name", "=", filter.name);
  if (filter.runId !== undefined) base = base.where("runId", "=", filter.runId);
  return pageOf(base, (q) => q.selectAll().orderBy("id"), page);
}

/** Deletes an artifact of a repository (expired or not); the deleted row, or undefined when there was none. */
export async function deleteArtifact(db: Db, repoId: number, id: number): Promise<ArtifactRow | undefined> {
  return db
    .deleteFrom("actionArtifact")
    .where("id", "=", id)
    .where("repoId", "=", repoId)
    .returningAll()
    .executeTakeFirst();
}

/** Repositories holding artifacts expired at `now`, at most `limit` of them (for the expiry task). */
export async function reposWithExpiredArtifacts(db: Db, now: Date, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("actionArtifact")
    .select("repoId")
    .where("expiresAt", "<=", now)
    .groupBy("repoId")
    .orderBy("repoId")
    .limit(limit)
    .execute();
  return rows.map((r) => r.repoId);
}

/**
 * Deletes at most `limit` of a repository's artifacts expired at `now`; resolves with how many
 * went and the bytes they held.
 */
export async function deleteExpiredArtifacts(
  db: Db,
  repoId: number,
  now: Date,
  limit: number,
): Promise<{ count: number; bytes: number }> {
  const rows = await db
    .deleteFrom("actionArtifact")
    .where(
      "id",
      "in",
      db
        .selectFrom("actionArtifact")
        .select("id")
        .where("repoId", "=", repoId)
        .where("expiresAt", "<=", now)
        .orderBy("id")
        .limit(limit),
    )
    .returning("size")
    .execute();
  return { count: rows.length, bytes: rows.reduce((sum, r) => sum + r.size, 0) };
}

/** The subset of these blob keys some artifact refers to (for the blob sweep). */
export async function referencedArtifactBlobs(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom("actionArtifact")
    .select("blobKey")
    .distinct()
    .where("blobKey", "in", keys)
    .execute();
  return new Set(rows.map((r) => r.blobKey));
}

/** An artifact counting against an owner, as `/user/quota/artifacts` lists it. */
export interface UsedArtifact {
  readonly name: string;
  readonly size: number;
  readonly ownerName: string;
  readonly repoName: string;
  readonly runId: number;
}

/**
 * A page of the artifacts counting against an owner (in its repositories, not expired at
 * `now`), largest first, with the total; with `publicOnly`, those of its public repositories only.
 */
export async function listUsedArtifacts(
  db: Db,
  ownerId: number,
  page: PageRequest,
  now: Date,
  publicOnly = false,
): Promise<Paged<UsedArtifact>> {
  let base = db
    .selectFrom("actionArtifact")
    .innerJoin("repository", "repository.id", "actionArtifact.repoId")
    .where("repository.ownerId", "=", ownerId)
    .where("actionArtifact.expiresAt", ">", now);
  if (publicOnly) base = base.where("repository.isPrivate", "=", false);
  return pageOf(
    base,
    (q) =>
      q
        .select([
          "actionArtifact.name",
          "actionArtifact.size",
          "repository.ownerName",
          "repository.name as repoName",
          "actionArtifact.runId",
        ])
        .orderBy("actionArtifact.size", "desc")
        .orderBy("actionArtifact.id"),
    page,
  );
}

/**
 * Artifacts, for `kiln doctor quota`: the bytes of every artifact row (expired or not: the expiry
 * task releases an artifact's usage when it removes the row) in the owners' repositories.
 */
export const artifactUsage: UsageSource = async (db, ownerIds) => {
  const rows = await db
    .selectFrom("actionArtifact")
    .innerJoin("repository", "repository.id", "actionArtifact.repoId")
    .where("repository.ownerId", "in", ownerIds)
    .groupBy("repository.ownerId")
    .select((eb) => ["repository.ownerId", eb.fn.sum<number>("actionArtifact.size").as("artifacts")])
    .execute();
  return new Map(rows.map((r) => [r.ownerId, { artifacts: Number(r.artifacts) }]));
};

/** The artifact bytes one repository holds (they move with it to a new owner, and go with it). */
export async function repositoryArtifactUsage(db: Db, repoId: number): Promise<Partial<UsageCounters>> {
  const row = await db
    .selectFrom("actionArtifact")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("size"), eb.lit(0)).as("artifacts"))
    .where("repoId", "=", repoId)
    .executeTakeFirstOrThrow();
  return { artifacts: Number(row.artifacts) };
}

/**
 * Deletes the run's artifact of that name when it expired by `now` (it is gone for readers, and a
 * new upload takes its place); resolves with the bytes it held, 0 when there was none.
 */
export async function deleteExpiredByName(
  db: Db,
  repoId: number,
  runId: number,
  name: string,
  now: Date,
): Promise<number> {
  const row = await db
    .deleteFrom("actionArtifact")
    .where("repoId", "=", repoId)
    .where("runId", "=", runId)
    .where("name", "=", name)
    .where("expiresAt", "<=", now)
    .returning("size")
    .executeTakeFirst();
  return row?.size ?? 0;
}
