import type { Issue } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { ISSUE_COLUMNS } from "./issues.js";

// ---- pins (Forgejo's models/issues Pin, Unpin, MovePin: positions 1..n per repository and kind) ----

/** The highest pin position among a repository's issues (or pull requests); 0 when none is pinned. */
export async function maxPinOrder(db: Db, repoId: number, isPull: boolean): Promise<number> {
  const row = await db
    .selectFrom("issue")
    .select((eb) => eb.fn.max("pinOrder").as("max"))
    .where("repoId", "=", repoId)
    .where("isPull", "=", isPull)
    .where("pinOrder", ">", 0)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Moves the pins at positions ≥ `from` by `delta`. */
export async function shiftPins(
  db: Db,
  repoId: number,
  isPull: boolean,
  from: number,
  delta: number,
): Promise<void> {
  await db
    .updateTable("issue")
    .set({ pinOrder: sql`pin_order + ${delta}` })
    .where("repoId", "=", repoId)
    .where("isPull", "=", isPull)
    .where("pinOrder", ">=", from)
    .execute();
}

/** A repository's pinned issues (or pull requests) in pin order. */
export async function listPinned(db: Db, repoId: number, isPull: boolean): Promise<Issue[]> {
  return db
    .selectFrom("issue")
    .select(ISSUE_COLUMNS)
    .where("repoId", "=", repoId)
    .where("isPull", "=", isPull)
    .where("pinOrder", ">", 0)
    .orderBy("pinOrder")
    .execute();
}

// ---- dependencies: `issueId` is blocked by `dependencyId` ----

export async function dependencyExists(db: Db, issueId: number, dependencyId: number): Promise<boolean> {
  const row = await db
    .selectFrom("issueDependency")
    .select("id")
    .where("issueId", "=", issueId)
    .where("dependencyId", "=", dependencyId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function addDependency(
  db: Db,
  issueId: number,
  dependencyId: number,
  userId: number,
): Promise<void> {
  await db.insertInto("issueDependency").values({ issueId, dependencyId, userId }).execute();
}

/** Removes a dependency; answers whether there was one. */
export async function removeDependency(db: Db, issueId: number, dependencyId: number): Promise<boolean> {
  const result = await db
    .deleteFrom("issueDependency")
    .where("issueId", "=", issueId)
    .where("dependencyId", "=", dependencyId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The issues that block `issueId` (its dependencies), oldest dependency first, at most `limit`. */
export async function blockersOf(db: Db, issueId: number, limit: number): Promise<Issue[]> {
  return db
    .selectFrom("issueDependency")
    .innerJoin("issue", "issue.id", "issueDependency.dependencyId")
    .select(ISSUE_COLUMNS)
    .where("issueDependency.issueId", "=", issueId)
    .orderBy("issueDependency.id")
    .limit(limit)
    .execute();
}

/** The issues `issueId` blocks, oldest dependency first, at most `limit`. */
export async function blockedBy(db: Db, issueId: number, limit: number): Promise<Issue[]> {
  return db
    .selectFrom("issueDependency")
    .innerJoin("issue", "issue.id", "issueDependency.issueId")
    .select(ISSUE_COLUMNS)
    .where("issueDependency.dependencyId", "=", issueId)
    .orderBy("issueDependency.id")
    .limit(limit)
    .execute();
}

/** How many dependencies `issueId` has, and how many issues `dependencyId` blocks. */
export async function dependencyCounts(
  db: Db,
  issueId: number,
  dependencyId: number,
): Promise<{ dependencies: number; blocks: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom("issueDependency")
        .select(eb.fn.countAll().as("n"))
        .where("issueId", "=", issueId)
        .as("dependencies"),
      eb
        .selectFrom("issueDependency")
        .select(eb.fn.countAll().as("n"))
        .where("dependencyId", "=", dependencyId)
        .as("blocks"),
    ])
    .executeTakeFirstOrThrow();
  return { dependencies: Number(row.dependencies), blocks: Number(row.blocks) };
}

/** Whether an open issue blocks `issueId` (closing it is refused while one does). */
export async function hasOpenBlockers(db: Db, issueId: number): Promise<boolean> {
  const row = await db
    .selectFrom("issueDependency")
    .innerJoin("issue", "issue.id", "issueDependency.dependencyId")
    .select("issueDependency.id")
    .where("issueDependency.issueId", "=", issueId)
    .where("issue.isClosed", "=", false)
    .executeTakeFirst();
  return row !== undefined;
}
