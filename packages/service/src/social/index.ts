export { autoWatchConsumer } from "./auto-watch.js";
export {
  assertAssignable,
  assertNoBlockBetween,
  assertNotBlocked,
  BLOCKED_MESSAGE,
  BlockService,
} from "./block-service.js";
export { FollowService } from "./follow-service.js";
export {
  MAX_BULK_THREADS,
  type MarkQuery,
  NotificationService,
  type NotificationThreadRow,
  notificationSourceOf,
  notificationStatusOf,
  type ThreadQuery,
} from "./notification-service.js";
export { StarService } from "./star-service.js";
export { WatchService, type WatchState } from "./watch-service.js";
