export {
  type EventBase,
  type EventChanges,
  type ForgeEvent,
  HOOK_EVENT_TYPES,
  type HookEvent,
  type HookEventType,
  type IssueTouchedEvent,
  isHookEvent,
  type PushedCommit,
} from "./event.js";
export { type EventConsumer, EventRecorder } from "./recorder.js";
