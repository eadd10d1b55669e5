import type { Milestone, Paged, PageRequest } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { paged } from "./paging.js";

const MILESTONE_COLUMNS = [
  "milestone.id",
  "milestone.repoId",
  "milestone.name",
  "milestone.content",
  "milestone.isClosed",
  "milestone.numIssues",
  "milestone.numClosedIssues",
  "milestone.deadline",
  "milestone.closedAt",
  "milestone.createdAt",
  "milestone.updatedAt",
] as const;

export interface NewMilestone {
  readonly name: string;
  readonly content: string;
  readonly deadline: Date | null;
  readonly closed: boolean;
}

/** The columns a milestone edit may change. */
export interface MilestoneChanges {
  readonly name?: string;
  readonly content?: string;
  readonly deadline?: Date | null;
  readonly isClosed?: boolean;
  readonly closedAt?: Date | null;
}

/** Which milestones a list shows: open, closed or all, and a case-insensitive part of the name. */
export interface MilestoneFilter {
  readonly state: "open" | "closed" | "all";
  readonly name?: string | undefined;
}

export async function insertMilestone(db: Db, repoId: number, milestone: NewMilestone): Promise<Milestone> {
  const now = new Date();
  const { id } = await db
    .insertInto("milestone")
    .values({
      repoId,
      name: milestone.name,
      content: milestone.content,
      deadline: milestone.deadline,
      isClosed: milestone.closed,
      closedAt: milestone.closed ? now : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await recountRepoMilestones(db, repoId);
  return (await findMilestone(db, repoId, id)) as Milestone;
}

export async function findMilestone(db: Db, repoId: number, id: number): Promise<Milestone | undefined> {
  return db
    .selectFrom("milestone")
    .select(MILESTONE_COLUMNS)
    .where("milestone.repoId", "=", repoId)
    .where("milestone.id", "=", id)
    .executeTakeFirst();
}

export async function findMilestoneByName(
  db: Db,
  repoId: number,
  name: string,
): Promise<Milestone | undefined> {
  return db
    .selectFrom("milestone")
    .select(MILESTONE_COLUMNS)
    .where("milestone.repoId", "=", repoId)
    .where("milestone.name", "=", name)
    .orderBy("milestone.id")
    .executeTakeFirst();
}

/** Milestones of these ids, in any repository (for converting issues). */
export async function milestonesByIds(db: Db, ids: readonly number[]): Promise<Map<number, Milestone>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("milestone")
    .select(MILESTONE_COLUMNS)
    .where("milestone.id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * A repository's milestones by due date (none last), then name, as Forgejo lists them; a page of
 * them, or all when `page` is undefined, with the total.
 */
export async function listMilestones(
  db: Db,
  repoId: number,
  filter: MilestoneFilter,
  page: PageRequest | undefined,
): Promise<Paged<Milestone>> {
  let rows = db.selectFrom("milestone").select(MILESTONE_COLUMNS).where("milestone.repoId", "=", repoId);
  let count = db
    .selectFrom("milestone")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("milestone.repoId", "=", repoId);
  if (filter.state !== "all") {
    rows = rows.where("milestone.isClosed", "=", filter.state === "closed");
    count = count.where("milestone.isClosed", "=", filter.state === "closed");
  }
  if (filter.name) {
    const pattern = `%${filter.name.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    rows = rows.where("milestone.name", "ilike", pattern);
    count = count.where("milestone.name", "ilike", pattern);
  }
  rows = rows
    .orderBy(sql`milestone.deadline asc nulls last`)
    .orderBy("milestone.name")
    .orderBy("milestone.id");
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}

export async function updateMilestone(db: Db, id: number, changes: MilestoneChanges): Promise<void> {
  await db
    .updateTable("milestone")
    .set({ ...changes, updatedAt: new Date() })
    .where("id", "=", id)
    .execute();
}

/** Deletes a milestone; its issues lose it (the foreign key sets their milestone to null). */
export async function deleteMilestone(db: Db, repoId: number, id: number): Promise<void> {
  await db.deleteFrom("milestone").where("id", "=", id).where("repoId", "=", repoId).execute();
  await recountRepoMilestones(db, repoId);
}

/** Recounts the open and closed issues of these milestones (in the transaction of the change). */
export async function recountMilestones(db: Db, ids: readonly (number | null)[]): Promise<void> {
  const present = [...new Set(ids.filter((id): id is number => id !== null))];
  if (present.length === 0) return;
  await db
    .updateTable("milestone")
    .set({
      numIssues: sql`(select count(*) from issue where issue.milestone_id = milestone.id)`,
      numClosedIssues: sql`(select count(*) from issue where issue.milestone_id = milestone.id and issue.is_closed)`,
    })
    .where("id", "in", present)
    .execute();
}

/** Recounts a repository's open and closed milestones. */
export async function recountRepoMilestones(db: Db, repoId: number): Promise<void> {
  await db
    .updateTable("repository")
    .set({
      numMilestones: sql`(select count(*) from milestone where milestone.repo_id = repository.id)`,
      numClosedMilestones: sql`(select count(*) from milestone where milestone.repo_id = repository.id and milestone.is_closed)`,
    })
    .where("id", "=", repoId)
    .execute();
}
