import type { HookRequestInfo, HookResponseInfo, HookTask } from "@kiln/domain";
import { type api, formatTime, type Settings } from "@kiln/domain";
import type * as v from "valibot";
import type { HookView } from "../webhooks/hook-service.js";

/**
 * Forgejo's `Hook` (services/webhook.ToHook): `config` shows the url, content type and method
 * (and Slack's channel, username, icon and colour), never the secret; `authorization_header` is
 * shown as Forgejo shows it; `url` is the hook's settings page under `home` (a repository,
 * owner or `admin` path).
 */
export function toApiHook(view: HookView, home: string, settings: Settings): v.InferOutput<typeof api.Hook> {
  const { hook } = view;
  let metadata: unknown = null;
  const config: Record<string, string> = {
    url: hook.url,
    content_type: hook.contentType,
    http_method: hook.httpMethod,
  };
  if (hook.meta) {
    try {
      metadata = JSON.parse(hook.meta);
      if (hook.type === "slack" && metadata && typeof metadata === "object") {
        for (const [k, value] of Object.entries(metadata)) if (typeof value === "string") config[k] = value;
      }
    } catch {
      metadata = null;
    }
  }
  return {
    id: hook.id,
    type: hook.type,
    url: `${settings.server.rootUrl}${home}/settings/hooks/${hook.id}`,
    branch_filter: hook.branchFilter,
    config,
    events: [...view.events],
    authorization_header: view.authorizationHeader,
    content_type: hook.contentType,
    metadata,
    active: hook.isActive,
    updated_at: formatTime(hook.updatedAt),
    created_at: formatTime(hook.createdAt),
  };
}

/** A delivery of a hook (Kiln's extension), with what was sent and what came back. */
export function toApiHookDelivery(task: HookTask): v.InferOutput<typeof api.HookDelivery> {
  return {
    id: task.id,
    uuid: task.uuid,
    event: task.eventType,
    delivered: task.isDelivered,
    succeeded: task.isSucceed,
    attempts: task.attempts,
    next_attempt_at: task.isDelivered ? null : formatTime(task.nextAttemptAt),
    delivered_at: task.deliveredAt ? formatTime(task.deliveredAt) : null,
    created_at: formatTime(task.createdAt),
    request: task.requestInfo ? (JSON.parse(task.requestInfo) as HookRequestInfo) : null,
    response: task.responseInfo ? (JSON.parse(task.responseInfo) as HookResponseInfo) : null,
    payload: task.payload,
  };
}
