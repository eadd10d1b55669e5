import type { ServiceContext } from "../context.js";
import { BlockService } from "./block-service.js";
import { FollowService } from "./follow-service.js";
import { NotificationService } from "./notification-service.js";
import { StarService } from "./star-service.js";
import { WatchService } from "./watch-service.js";

/** Watching, stars, following, blocking, and the notification threads watches and issue changes produce. */
export interface SocialArea {
  readonly watches: WatchService;
  readonly stars: StarService;
  readonly follows: FollowService;
  readonly notifications: NotificationService;
  readonly blocks: BlockService;
}

/** Builds the social area (its notifications are written by the `notifications` event consumer). */
export function socialArea(ctx: ServiceContext): SocialArea {
  return {
    watches: new WatchService(ctx),
    stars: new StarService(ctx),
    follows: new FollowService(ctx),
    notifications: new NotificationService(ctx),
    blocks: new BlockService(ctx),
  };
}
