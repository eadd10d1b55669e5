import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";
import { User } from "./user.js";

/** The longest secret or variable name and value taken (Forgejo's web forms: 255 and 65535). */
const MAX_NAME = 255;
const MAX_VALUE = 65_535;
const MAX_REF = 1024;
const MAX_INPUTS = 100;

/** A secret as Forgejo lists it: its name and creation time, never its value. */
export const Secret = v.object({ name: v.string(), created_at: dateTime() });

/** Forgejo's CreateOrUpdateSecretOption (`data` required: an empty one is 422, as Forgejo's binding). */
export const CreateOrUpdateSecretOption = v.object({
  data: v.pipe(v.string(), v.minLength(1, "data is required"), v.maxLength(MAX_VALUE)),
});

/** A variable as Forgejo's ActionVariable. */
export const ActionVariable = v.object({
  owner_id: int64(),
  repo_id: int64(),
  name: v.string(),
  data: v.string(),
});

/** Forgejo's CreateVariableOption. */
export const CreateVariableOption = v.object({
  value: v.pipe(v.string(), v.minLength(1, "value is required"), v.maxLength(MAX_VALUE)),
});

/** Forgejo's UpdateVariableOption: an empty or absent `name` keeps the name. */
export const UpdateVariableOption = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(MAX_NAME))),
  value: v.pipe(v.string(), v.minLength(1, "value is required"), v.maxLength(MAX_VALUE)),
});

/** Forgejo's RegistrationToken body. */
export const RegistrationToken = v.object({ token: v.string() });

/** A job of a run, as Forgejo's ActionRunJob. */
export const ActionRunJob = v.object({
  id: int64(),
  repo_id: int64(),
  owner_id: int64(),
  name: v.string(),
  needs: v.array(v.string()),
  runs_on: v.array(v.string()),
  task_id: int64(),
  status: v.string(),
});

/** A run as Forgejo's RepoActionRun. */
export const RepoActionRun = v.object({
  id: int64(),
  name: v.string(),
  event: v.string(),
  head_branch: v.string(),
  head_sha: v.string(),
  run_number: int64(),
  status: v.string(),
  triggering_actor: v.optional(User),
  url: v.string(),
  workflow_id: v.string(),
});

/** Forgejo's ListRepoActionRunResponse. */
export const ListRepoActionRunResponse = v.object({
  total_count: int64(),
  workflow_runs: v.array(RepoActionRun),
});

/** A task as Forgejo's ActionTask. */
export const ActionTask = v.object({
  id: int64(),
  name: v.string(),
  head_branch: v.string(),
  head_sha: v.string(),
  run_number: int64(),
  event: v.string(),
  display_title: v.string(),
  status: v.string(),
  workflow_id: v.string(),
  url: v.string(),
  created_at: dateTime(),
  updated_at: dateTime(),
  run_started_at: dateTime(),
});

/** Forgejo's ActionTaskResponse. */
export const ActionTaskResponse = v.object({
  total_count: int64(),
  workflow_runs: v.array(ActionTask),
});

/** Forgejo's DispatchWorkflowOption, bounded. */
export const DispatchWorkflowOption = v.object({
  ref: v.pipe(v.string(), v.minLength(1, "ref is required"), v.maxLength(MAX_REF)),
  inputs: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.maxLength(MAX_NAME)), v.pipe(v.string(), v.maxLength(MAX_VALUE))),
      v.check((inputs) => Object.keys(inputs).length <= MAX_INPUTS, `at most ${MAX_INPUTS} inputs`),
    ),
  ),
  return_run_info: v.optional(v.boolean()),
});

/** Forgejo's DispatchWorkflowRun. */
export const DispatchWorkflowRun = v.object({
  id: int64(),
  run_number: int64(),
  jobs: v.array(v.string()),
});
