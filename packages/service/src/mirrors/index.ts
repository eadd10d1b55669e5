export { formatInterval, parseInterval } from "./go-duration.js";
export {
  type MirrorSyncOutcome,
  PULL_MIRRORS_DISABLED,
  type PullMirrorPlan,
  PullMirrorService,
  type PullMirrorView,
} from "./pull-mirror-service.js";
export { type NewPushMirrorInput, PUSH_MIRRORS_DISABLED, PushMirrorService } from "./push-mirror-service.js";
export { updateMirrorsTask } from "./update-mirrors-task.js";
