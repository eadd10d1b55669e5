export { MAX_ACTION_NAME, MAX_ACTION_VALUE } from "./action-names.js";
export {
  ACTION_STATUSES,
  ActionRunService,
  type DispatchedRun,
  MAX_LISTED_JOBS,
  type RunJobView,
  type RunsView,
} from "./action-run-service.js";
export { actionScope } from "./action-scope.js";
export { ActionSettingsService, type SecretView, type VariableView } from "./action-settings-service.js";
export { artifactExpiryTask } from "./artifact-expiry.js";
export { MAX_ARTIFACT_NAME } from "./artifact-input.js";
export { ArtifactService, type ArtifactUpload, type OpenedArtifact } from "./artifact-service.js";
export { type RunnerScope, RunnerTokenService } from "./runner-token-service.js";
export { MAX_WORKFLOW_SIZE, parseWorkflow, WORKFLOW_DIRS } from "./workflow-file.js";
