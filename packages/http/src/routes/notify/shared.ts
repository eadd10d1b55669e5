import { api, BadRequestError } from "@kiln/domain";
import { accountSight, type NotificationThreadRow, parseTime, toNotificationThread } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pageQuery, qs } from "../../query.js";

/** Strings given as a repeated parameter (Swagger's `multi`): at most 10, each at most 50 characters. */
export const stringList = (description: string, items?: readonly string[]) =>
  v.pipe(
    v.union([v.string(), v.array(v.string())]),
    v.transform((given) => (Array.isArray(given) ? given : [given])),
    v.maxLength(10, "at most 10 values"),
    v.check((values) => values.every((value) => value.length <= 50), "values of at most 50 characters"),
    v.metadata({
      swagger: {
        type: "array",
        items: { type: "string", ...(items ? { enum: items } : {}) },
        collectionFormat: "multi",
      },
      description,
    }),
  );

/** The filters of a thread list (Forgejo's notifyGetList and notifyGetRepoList). */
export const listQuery = {
  all: v.optional(qs.bool("If true, show notifications marked as read. Default value is false")),
  "status-types": v.optional(
    stringList(
      "Show notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread & pinned.",
    ),
  ),
  "subject-type": v.optional(
    stringList("filter notifications by subject type", ["issue", "pull", "commit", "repository"]),
  ),
  since: v.optional(
    qs.string("Only show notifications updated after the given time. This is a timestamp in RFC 3339 format"),
  ),
  before: v.optional(
    qs.string(
      "Only show notifications updated before the given time. This is a timestamp in RFC 3339 format",
    ),
  ),
  ...pageQuery,
};

/** The choices of a bulk status change (Forgejo's notifyReadList and notifyReadRepoList). */
export const markQuery = {
  last_read_at: v.optional(
    qs.string(
      "Describes the last point that notifications were checked. Anything updated since this time will not be updated.",
    ),
  ),
  all: v.optional(qs.string("If true, mark all notifications on this repo. Default value is false")),
  "status-types": v.optional(
    stringList(
      "Mark notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread.",
    ),
  ),
  "to-status": v.optional(qs.string("Status to mark notifications as, Defaults to read.")),
};

export const threadList = { description: "NotificationThreadList", schema: v.array(api.NotificationThread) };

/** Forgejo's `last_read_at`: RFC 3339, 400 otherwise; the zero time means none. */
export function lastReadAt(value: string | undefined): Date | undefined {
  const text = value?.trim() ?? "";
  if (text === "") return undefined;
  let at: Date | undefined;
  try {
    at = parseTime(text);
  } catch (error) {
    throw new BadRequestError((error as Error).message);
  }
  return at && at.getTime() > new Date("0001-01-01T00:00:00Z").getTime() ? at : undefined;
}

/** Go's FormBool: true only for a value strconv.ParseBool reads as true. */
export function formBool(value: string | undefined): boolean {
  return ["1", "t", "T", "TRUE", "true", "True"].includes(value ?? "");
}

/** Threads in API shape, their repositories loaded in one query. */
export async function apiThreads(c: AppContext, rows: readonly NotificationThreadRow[]) {
  const services = c.get("services");
  const actor = c.get("actor");
  const repos = await services.notifications.repositories(actor, rows);
  return rows.flatMap((row) => {
    const found = repos.get(row.repoId);
    return found
      ? [toNotificationThread(row, found.repo, found.owner, accountSight(actor.user), c.get("settings"))]
      : [];
  });
}

/** Converts the list filters of a query into the service's. */
export function threadQuery(query: {
  all?: boolean | undefined;
  "status-types"?: string[] | undefined;
  "subject-type"?: string[] | undefined;
  since?: string | undefined;
  before?: string | undefined;
}) {
  const since = parseTime(query.since);
  const before = parseTime(query.before);
  return {
    all: query.all ?? false,
    ...(query["status-types"] ? { statuses: query["status-types"] } : {}),
    ...(query["subject-type"] ? { subjectTypes: query["subject-type"] } : {}),
    ...(since ? { since } : {}),
    ...(before ? { before } : {}),
  };
}

/** Converts a bulk change's query into the service's. */
export function markChoices(query: {
  last_read_at?: string | undefined;
  all?: string | undefined;
  "status-types"?: string[] | undefined;
  "to-status"?: string | undefined;
}) {
  const at = lastReadAt(query.last_read_at);
  return {
    all: formBool(query.all),
    ...(query["status-types"] ? { statuses: query["status-types"] } : {}),
    ...(at ? { lastReadAt: at } : {}),
    ...(query["to-status"] !== undefined ? { toStatus: query["to-status"] } : {}),
  };
}

/**
 * The standard Response class as this module found it: @hono/node-server replaces the global one
 * with its own when a server starts listening, and that one cannot be read back in-process with a
 * 205 status.
 */
const StandardResponse = globalThis.Response;

/**
 * Forgejo answers a status change with 205 Reset Content and the threads as JSON (Go's server
 * sends content with 205; RFC 9110 says it should not). The Fetch standard's Response refuses
 * content with 205, so the answer is a 200 response carrying the status 205: Node's HTTP server
 * (through @hono/node-server, which writes `res.status` and streams `res.body`) sends Forgejo's
 * status and body, and in-process callers read both.
 */
export function resetContent(data: unknown): Response {
  const res = new StandardResponse(JSON.stringify(data), {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
  Object.defineProperty(res, "status", { value: 205 });
  return res;
}
