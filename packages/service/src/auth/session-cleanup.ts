import { oauth2Grants, webSessions } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { CronTask } from "../cron/cron-task.js";

/**
 * A Kiln cron task (Forgejo's session provider collects its own garbage): removes expired web
 * sessions and authorization codes that were never exchanged. Both are refused once expired
 * anyway; this only keeps the tables small.
 */
export function sessionCleanupTask(ctx: ServiceContext): CronTask {
  return {
    name: "cleanup_expired_sessions",
    description: "Remove expired sign-in sessions and OAuth2 authorization codes",
    schedule: "@every 1h",
    async run() {
      const sessions = await webSessions.deleteExpiredSessions(ctx.db);
      const codes = await oauth2Grants.deleteExpiredCodes(ctx.db);
      return `removed ${sessions} expired session(s) and ${codes} expired authorization code(s)`;
    },
  };
}
