import type { ActionRun, ActionTask } from "@kiln/domain";
import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { RunJobView } from "../actions/action-run-service.js";
import type { SecretView, VariableView } from "../actions/action-settings-service.js";
import { toApiUser } from "./user.js";

/** A secret as Forgejo's API shows it: name and creation time only. */
export function toApiSecret(secret: SecretView): v.InferOutput<typeof api.Secret> {
  return { name: secret.name, created_at: formatTime(secret.createdAt) };
}

export function toApiVariable(variable: VariableView): v.InferOutput<typeof api.ActionVariable> {
  return { owner_id: variable.ownerId, repo_id: variable.repoId, name: variable.name, data: variable.data };
}

export function toApiRunJob(job: RunJobView): v.InferOutput<typeof api.ActionRunJob> {
  return {
    id: job.row.id,
    repo_id: job.row.repoId,
    owner_id: job.row.ownerId,
    name: job.row.name,
    needs: [...job.needs],
    runs_on: [...job.runsOn],
    task_id: job.row.taskId,
    status: job.row.status,
  };
}

/** A ref's short name: the branch or tag, or the ref as stored (Forgejo's PrettyRef). */
function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

function runUrl(repo: Repository, index: number, settings: Settings): string {
  return `${settings.server.rootUrl}${repo.ownerName}/${repo.name}/actions/runs/${index}`;
}

/** A run as Forgejo's RepoActionRun; `triggering_actor` when the user still exists. */
export function toApiRun(
  run: ActionRun,
  repo: Repository,
  users: ReadonlyMap<number, User>,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.RepoActionRun> {
  const trigger = run.triggerUserId !== null ? users.get(run.triggerUserId) : undefined;
  return {
    id: run.id,
    name: run.title,
    event: run.event,
    head_branch: shortRef(run.ref),
    head_sha: run.commitSha,
    run_number: run.index,
    status: run.status,
    ...(trigger ? { triggering_actor: toApiUser(trigger, sight, settings) } : {}),
    url: runUrl(repo, run.index, settings),
    workflow_id: run.workflowId,
  };
}

/** A task as Forgejo's ActionTask. */
export function toApiTask(
  task: ActionTask,
  repo: Repository,
  settings: Settings,
): v.InferOutput<typeof api.ActionTask> {
  return {
    id: task.id,
    name: task.jobName,
    head_branch: shortRef(task.runRef),
    head_sha: task.runCommitSha,
    run_number: task.runIndex,
    event: task.runEvent,
    display_title: task.runTitle,
    status: task.status,
    workflow_id: task.runWorkflowId,
    url: runUrl(repo, task.runIndex, settings),
    created_at: formatTime(task.createdAt),
    updated_at: formatTime(task.updatedAt),
    run_started_at: formatTime(task.runStartedAt ?? new Date(0)),
  };
}
