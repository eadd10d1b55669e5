import type { WebhookRow } from "@kiln/storage";
import type { HookEventType } from "../events/event.js";
import type { HookPayload } from "./webhook-payloads.js";

/** The hook types Kiln delivers: Forgejo's JSON family and three chat formats. */
export const HOOK_TYPES = ["forgejo", "gitea", "gogs", "slack", "discord", "matrix"] as const;
export type HookType = (typeof HOOK_TYPES)[number];

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === "object" ? (value as Json) : {});
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/**
 * A one-line summary of a payload for the chat formats (Slack, Discord, Matrix), in the spirit of
 * Forgejo's services/webhook/general.go texts: `[owner/repo] user pushed 2 commits to main`.
 */
export function summary(type: HookEventType, payload: HookPayload): { text: string; url: string } {
  const repo = str(obj(payload.repository).full_name);
  const sender = str(obj(payload.sender).login) || str(obj(payload.pusher).login);
  const action = str(payload.action);
  const prefix = repo ? `[${repo}] ` : "";
  const issue = obj(payload.pull_request ?? payload.issue);
  switch (type) {
    case "push": {
      const n = Number(payload.total_commits ?? 0);
      const ref = shortRef(str(payload.ref));
      return {
        text: `${prefix}${sender} pushed ${n} commit${n === 1 ? "" : "s"} to ${ref}`,
        url: str(payload.compare_url),
      };
    }
    case "create":
    case "delete":
      return {
        text: `${prefix}${sender} ${type === "create" ? "created" : "deleted"} ${str(payload.ref_type)} ${shortRef(str(payload.ref))}`,
        url: str(obj(payload.repository).html_url),
      };
    case "release": {
      const release = obj(payload.release);
      return {
        text: `${prefix}Release ${action}: ${str(release.tag_name)} by ${sender}`,
        url: str(release.html_url),
      };
    }
    case "package": {
      const pkg = obj(payload.package);
      return {
        text: `Package ${action}: ${str(pkg.name)}:${str(pkg.version)} by ${sender}`,
        url: str(pkg.html_url),
      };
    }
    case "repository":
    case "fork":
    case "wiki":
      return { text: `${prefix}${type} ${action} by ${sender}`, url: str(obj(payload.repository).html_url) };
    default: {
      const comment = obj(payload.comment);
      const what = payload.comment
        ? `comment ${action} on #${String(issue.number ?? "")}`
        : `#${String(issue.number ?? "")} ${action}`;
      return {
        text: `${prefix}${what}: ${str(issue.title)} by ${sender}`,
        url: str(comment.html_url) || str(issue.html_url),
      };
    }
  }
}

/** A ref's short name (`refs/heads/main` → `main`, `refs/tags/v1` → `v1`), as Forgejo's RefName.ShortName. */
export function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

/**
 * The body a hook of `hook.type` is sent for a payload: the payload itself for Forgejo/Gitea/Gogs,
 * except that `gitea` hooks get the short name in `create` and `delete` payloads (Forgejo's
 * substituteRefShortName, which Woodpecker relies on) while `forgejo` and `gogs` hooks keep the
 * full ref; a one-line summary for the chat formats.
 */
export function renderBody(
  hook: Pick<WebhookRow, "type" | "meta">,
  type: HookEventType,
  payload: HookPayload,
): string {
  switch (hook.type as HookType) {
    case "gitea":
      return JSON.stringify(
        (type === "create" || type === "delete") && typeof payload.ref === "string"
          ? { ...payload, ref: shortRef(payload.ref) }
          : payload,
      );
    case "slack": {
      const meta = parseMeta(hook.meta);
      const { text, url } = summary(type, payload);
      return JSON.stringify({
        channel: meta.channel ?? "",
        text: url ? `${text} <${url}|view>` : text,
        username: meta.username ?? "",
        icon_url: meta.icon_url ?? "",
      });
    }
    case "discord": {
      const meta = parseMeta(hook.meta);
      const { text, url } = summary(type, payload);
      return JSON.stringify({
        username: meta.username ?? "",
        avatar_url: meta.icon_url ?? "",
        embeds: [{ title: text.slice(0, 256), url, description: "" }],
      });
    }
    case "matrix": {
      const { text, url } = summary(type, payload);
      return JSON.stringify({
        body: url ? `${text} ${url}` : text,
        msgtype: parseMeta(hook.meta).message_type === "m.text" ? "m.text" : "m.notice",
        format: "org.matrix.custom.html",
        formatted_body: url ? `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>` : escapeHtml(text),
      });
    }
    default:
      return JSON.stringify(payload);
  }
}

function parseMeta(meta: string): Record<string, string | undefined> {
  try {
    return meta ? (JSON.parse(meta) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string,
  );
}
