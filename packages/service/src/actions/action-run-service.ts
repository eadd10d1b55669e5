import {
  BadRequestError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  type ActionRunJobRow,
  type ActionRunRow,
  actionRuns,
  type JobScope,
  type RunFilter,
  type TaskRow,
  users,
} from "@kiln/storage";
import type { Actor } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";
import { refusePublicOnly } from "./action-scope.js";
import { readWorkflow } from "./workflow-file.js";

/** Forgejo's run, job and task statuses (models/actions/status.go), by their API names. */
export const ACTION_STATUSES = [
  "unknown",
  "success",
  "failure",
  "cancelled",
  "skipped",
  "waiting",
  "running",
  "blocked",
] as const;

/** At most this many jobs are listed by a runner's job search (Forgejo lists all of them). */
export const MAX_LISTED_JOBS = 1000;

/** A page of runs with the users who triggered them. */
export interface RunsView {
  readonly page: Paged<ActionRunRow>;
  readonly users: ReadonlyMap<number, User>;
}

/** What a dispatch recorded: the run and its jobs' names (Forgejo's DispatchWorkflowRun). */
export interface DispatchedRun {
  readonly id: number;
  readonly runNumber: number;
  readonly jobs: readonly string[];
}

/** A job with its labels parsed. */
export interface RunJobView {
  readonly row: ActionRunJobRow;
  readonly needs: readonly string[];
  readonly runsOn: readonly string[];
}

function jsonStrings(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Workflow runs, their jobs and tasks as data (Forgejo's models/actions and the runs API). Kiln
 * runs no workflows: a `workflow_dispatch` request records a waiting run with the jobs of the
 * workflow file, which a runner would then pick up. Callers resolved the repository through the
 * access module.
 */
export class ActionRunService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
  ) {}

  /** A page of a repository's runs, newest first, with their triggering users. */
  async listRuns(repo: Repository, filter: RunFilter, page: PageRequest): Promise<RunsView> {
    const list = await actionRuns.listRuns(this.ctx.db, repo.id, filter, page);
    return { page: list, users: await this.usersOf(list.items) };
  }

  /** One run of a repository; 404 when it has none of that id. */
  async getRun(
    repo: Repository,
    id: number,
  ): Promise<{ run: ActionRunRow; users: ReadonlyMap<number, User> }> {
    const run = await actionRuns.findRun(this.ctx.db, repo.id, id);
    if (!run) throw new NotFoundError(`run with id ${id}: does not exist`);
    return { run, users: await this.usersOf([run]) };
  }

  /** A page of a repository's tasks, newest first. */
  listTasks(repo: Repository, statuses: readonly string[], page: PageRequest): Promise<Paged<TaskRow>> {
    return actionRuns.listTasks(this.ctx.db, repo.id, statuses, page);
  }

  /**
   * The waiting and running jobs of a scope that run on the given labels (Forgejo's
   * GetActionRunJobs: every label a job needs is among them; no labels, no jobs).
   */
  async searchJobs(actor: Actor, scope: JobScope, labels: readonly string[]): Promise<RunJobView[]> {
    // Jobs name private repositories' work: never for a public-only token, as the other settings.
    refusePublicOnly(actor);
    if (labels.length === 0) return [];
    const wanted = new Set(labels);
    const rows = await actionRuns.pendingJobs(this.ctx.db, scope, [...wanted], MAX_LISTED_JOBS);
    return rows
      .map((row) => ({ row, needs: jsonStrings(row.needs), runsOn: jsonStrings(row.runsOn) }))
      .filter((job) => job.runsOn.length > 0 && job.runsOn.every((l) => wanted.has(l)));
  }

  /**
   * Records a `workflow_dispatch` run of `file` at `ref` by `doer` (Forgejo's DispatchWorkflow):
   * 404 when the ref or the workflow file is missing, 400 when a required input has no value.
   * The run waits; its jobs wait, or are blocked when they need other jobs.
   */
  async dispatch(
    repo: Repository,
    doer: User,
    file: string,
    ref: string,
    given: Readonly<Record<string, string>>,
  ): Promise<DispatchedRun> {
    if (repo.isEmpty) throw new NotFoundError("workflow not found");
    const workflow = await readWorkflow(await this.repos.git(repo), ref, file);
    const inputs: Record<string, string> = {};
    for (const [key, input] of workflow.inputs) {
      const raw = Object.hasOwn(given, key) && given[key] ? given[key] : input.default;
      const value = input.boolean && raw === "on" ? "true" : raw;
      if (!value) {
        if (input.required) throw new BadRequestError(`Required input '${input.label}' not provided`);
        continue;
      }
      inputs[key] = value;
    }
    const { run, jobs } = await this.ctx.db.transaction().execute(async (trx) => {
      await actionRuns.lockRepository(trx, repo.id);
      return actionRuns.insertRun(
        trx,
        {
          repoId: repo.id,
          ownerId: repo.ownerId,
          title: workflow.name || workflow.fullId,
          workflowId: file,
          triggerUserId: doer.id,
          ref: workflow.ref,
          commitSha: workflow.commitSha,
          event: "workflow_dispatch",
          status: "waiting",
          inputs: JSON.stringify(inputs),
          startedAt: null,
          stoppedAt: null,
        },
        workflow.jobs.map((job) => ({
          name: job.name,
          needs: JSON.stringify(job.needs),
          runsOn: JSON.stringify(job.runsOn),
          status: job.needs.length > 0 ? "blocked" : "waiting",
        })),
      );
    });
    // Forgejo's DispatchWorkflowRun lists the jobs by their keys under `jobs:`.
    return { id: run.id, runNumber: run.index, jobs: workflow.jobs.slice(0, jobs.length).map((j) => j.id) };
  }

  private async usersOf(runs: readonly ActionRunRow[]): Promise<Map<number, User>> {
    const ids = [...new Set(runs.map((r) => r.triggerUserId).filter((id): id is number => id !== null))];
    const found = ids.length ? await users.findUsersByIds(this.ctx.db, ids) : [];
    return new Map(found.map((u) => [u.id, u]));
  }
}
