import type { ActionRun, ActionTask, Paged, PageRequest } from "@kiln/domain";
import { type Selectable, sql } from "kysely";
import type { Db } from "../database.js";
import type { ActionRunJobTable, ActionRunTable } from "../database-actions.js";
import { pageOf } from "./paging.js";

/** A run as stored; the domain's {@link ActionRun}. */
export type ActionRunRow = ActionRun;
/** A task with its job and run; the domain's {@link ActionTask}. */
export type TaskRow = ActionTask;
export type ActionRunJobRow = Selectable<ActionRunJobTable>;

/** Forgejo's FindRunOptions as its runs API fills them. */
export interface RunFilter {
  readonly events?: readonly string[];
  readonly statuses?: readonly string[];
  readonly runNumber?: number;
  readonly headSha?: string;
}

function runsOf(db: Db, repoId: number, filter: RunFilter) {
  let query = db.selectFrom("actionRun").where("repoId", "=", repoId);
  if (filter.events?.length) query = query.where("event", "in", [...filter.events]);
  if (filter.statuses?.length) query = query.where("status", "in", [...filter.statuses]);
  if (filter.runNumber) query = query.where("index", "=", filter.runNumber);
  if (filter.headSha) query = query.where("commitSha", "=", filter.headSha);
  return query;
}

/** A page of a repository's runs, newest first. */
export async function listRuns(
  db: Db,
  repoId: number,
  filter: RunFilter,
  page: PageRequest,
): Promise<Paged<ActionRunRow>> {
  return pageOf(runsOf(db, repoId, filter), (q) => q.selectAll().orderBy("id", "desc"), page);
}

/** One run of a repository by id. */
export async function findRun(db: Db, repoId: number, id: number): Promise<ActionRunRow | undefined> {
  return db
    .selectFrom("actionRun")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Records a run with its jobs, numbered next in its repository. The caller's transaction must
 * hold the repository row locked (`lockRepository`), so two runs never share a number.
 */
export async function insertRun(
  db: Db,
  run: Omit<ActionRunTable, "id" | "index" | "title" | "inputs" | "createdAt" | "updatedAt"> & {
    readonly title: string;
    readonly inputs: string;
  },
  jobs: readonly {
    readonly name: string;
    readonly needs: string;
    readonly runsOn: string;
    readonly status: string;
  }[],
): Promise<{ run: ActionRunRow; jobs: ActionRunJobRow[] }> {
  const last = await db
    .selectFrom("actionRun")
    .select((eb) => eb.fn.max("index").as("max"))
    .where("repoId", "=", run.repoId)
    .executeTakeFirst();
  const index = Number(last?.max ?? 0) + 1;
  const row = await db
    .insertInto("actionRun")
    .values({ ...run, index })
    .returningAll()
    .executeTakeFirstOrThrow();
  const jobRows =
    jobs.length === 0
      ? []
      : await db
          .insertInto("actionRunJob")
          .values(
            jobs.map((job) => ({
              runId: row.id,
              repoId: run.repoId,
              ownerId: run.ownerId,
              name: job.name,
              needs: job.needs,
              runsOn: job.runsOn,
              status: job.status,
            })),
          )
          .returningAll()
          .execute();
  return { run: row, jobs: jobRows.sort((a, b) => Number(a.id) - Number(b.id)) };
}

/** Locks a repository's row for the rest of the transaction (run numbering). */
export async function lockRepository(db: Db, repoId: number): Promise<void> {
  await db.selectFrom("repository").select("id").where("id", "=", repoId).forUpdate().execute();
}

/** Where jobs are searched: every repository (site), an owner's, or one repository's. */
export type JobScope = { readonly all: true } | { readonly ownerId: number } | { readonly repoId: number };

/**
 * The jobs of a scope that wait for or are on a runner and run on some of `labels` only
 * (Forgejo's GetActionRunJobs), oldest first, at most `limit` of them. The label match is in
 * SQL, so jobs nobody serves cannot crowd the others out of the limit.
 */
export async function pendingJobs(
  db: Db,
  scope: JobScope,
  labels: readonly string[],
  limit: number,
): Promise<ActionRunJobRow[]> {
  let query = db
    .selectFrom("actionRunJob")
    .selectAll("actionRunJob")
    .where("actionRunJob.status", "in", ["waiting", "running"])
    .where(sql<boolean>`action_run_job.runs_on <> '[]'`)
    .where(sql<boolean>`action_run_job.runs_on::jsonb <@ ${JSON.stringify(labels)}::jsonb`);
  // An owner's jobs are those of the repositories it owns now (a transferred repository's go with it).
  if ("ownerId" in scope)
    query = query.where("actionRunJob.repoId", "in", (eb) =>
      eb.selectFrom("repository").select("repository.id").where("repository.ownerId", "=", scope.ownerId),
    );
  if ("repoId" in scope) query = query.where("actionRunJob.repoId", "=", scope.repoId);
  return query.orderBy("actionRunJob.id").limit(limit).execute();
}

/** A page of a repository's tasks, newest first (Forgejo's FindTaskOptions by repository). */
export async function listTasks(
  db: Db,
  repoId: number,
  statuses: readonly string[],
  page: PageRequest,
): Promise<Paged<TaskRow>> {
  const base = () => {
    let query = db
      .selectFrom("actionTask")
      .innerJoin("actionRunJob", "actionRunJob.id", "actionTask.jobId")
      .innerJoin("actionRun", "actionRun.id", "actionRunJob.runId")
      .where("actionTask.repoId", "=", repoId);
    if (statuses.length) query = query.where("actionTask.status", "in", [...statuses]);
    return query;
  };
  const result = await pageOf(
    base(),
    (q) =>
      q
        .select([
          "actionTask.id",
          "actionTask.status",
          "actionTask.createdAt",
          "actionTask.updatedAt",
          "actionRunJob.name as jobName",
          "actionRun.index as runIndex",
          "actionRun.title as runTitle",
          "actionRun.event as runEvent",
          "actionRun.ref as runRef",
          "actionRun.commitSha as runCommitSha",
          "actionRun.workflowId as runWorkflowId",
          "actionRun.startedAt as runStartedAt",
        ])
        .orderBy("actionTask.id", "desc"),
    page,
  );
  return {
    total: result.total,
    items: result.items.map((row) => ({ ...row, id: Number(row.id), runIndex: Number(row.runIndex) })),
  };
}

/** Records a task of a job (what a runner's pick-up would store) and points the job at it. */
export async function insertTask(db: Db, job: ActionRunJobRow, status: string): Promise<number> {
  const row = await db
    .insertInto("actionTask")
    .values({ jobId: job.id, repoId: job.repoId, ownerId: job.ownerId, status })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .updateTable("actionRunJob")
    .set({ taskId: row.id, status, updatedAt: new Date() })
    .where("id", "=", job.id)
    .execute();
  return Number(row.id);
}
