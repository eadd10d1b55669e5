import { type ErrorKind, isKilnError } from "@kiln/domain";
import { GitBusyError } from "@kiln/git";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env.js";

const STATUS: Readonly<Record<ErrorKind, ContentfulStatusCode>> = {
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  invalid_argument: 422,
  bad_request: 400,
  unauthorized: 401,
  conflict: 409,
  locked: 423,
  payload_too_large: 413,
  precondition_failed: 412,
  method_not_allowed: 405,
  unavailable: 503,
};

/** The status code Forgejo answers for an error kind. */
export function statusOf(kind: ErrorKind): ContentfulStatusCode {
  return STATUS[kind];
}

/** Forgejo's error body (decision 9, docs/decisions.md): `{message, url}`; not-found adds `errors: []`. */
export function errorBody(c: Context<AppEnv>, status: number, message: string, extra: object = {}): object {
  const url = `${c.get("settings").server.rootUrl}api/swagger`;
  return status === 404 ? { message, url, errors: [], ...extra } : { message, url, ...extra };
}

/**
 * The one place that turns thrown errors into responses. Domain errors keep their message;
 * anything unexpected is logged and answered 500 without internals.
 */
export function onError(err: Error, c: Context<AppEnv>): Response {
  // The server's git work is at its limit (a queue that did not move in time), or the database
  // cannot be reached (a lost connection, a restart): try again later.
  if (err instanceof GitBusyError || (isKilnError(err) && err.kind === "unavailable")) {
    c.header("Retry-After", String((err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 5));
    return c.json(errorBody(c, 503, err.message), 503);
  }
  if (isKilnError(err)) {
    const status = statusOf(err.kind);
    const extra = (err as { details?: object }).details ?? {};
    return c.json(errorBody(c, status, err.message, extra), status);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json(errorBody(c, status, err.message || "request failed"), status);
  }
  c.get("logger").error(
    { err: { message: err.message, stack: err.stack }, path: c.req.path },
    "unhandled error",
  );
  return c.json(errorBody(c, 500, "internal server error"), 500);
}

/** 404 for paths no route matches, in Forgejo's not-found shape. */
export function onNotFound(c: Context<AppEnv>): Response {
  return c.json(errorBody(c, 404, "The target couldn't be found."), 404);
}
