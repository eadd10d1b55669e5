export { branchMatches, compileBranchGlob } from "./branch-glob.js";
export { deliver, RESPONSE_BODY_LIMIT, refusalMessage } from "./deliver.js";
export { DeliveryWorker } from "./delivery-worker.js";
export { type EventSubject, loadEventSubject, PUSH_PAYLOAD_MAX_COMMITS } from "./event-subject.js";
export { eventHeader, hookEventNames, hookWants, parseHookEvents } from "./hook-events.js";
export {
  type CreateHookInput,
  type EditHookInput,
  HookService,
  type HookView,
  hookScope,
} from "./hook-service.js";
export { HOOK_TASK_KEEP_MS, hookTaskCleanupTask } from "./hook-task-cleanup.js";
export { HostMatcher } from "./host-matcher.js";
export { HOOK_TYPES, type HookType, renderBody } from "./render.js";
export type { HookPayload } from "./webhook-payloads.js";
export { eventBranch, WebhookQueue } from "./webhook-queue.js";
export { WebhookService } from "./webhook-service.js";
