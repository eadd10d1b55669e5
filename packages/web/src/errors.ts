import { isKilnError } from "@kiln/domain";
import type { WebContext } from "./env.js";
import { here } from "./forms.js";
import { type ErrorStatus, errorPage } from "./layout/error-page.js";
import { seeOther } from "./responses.js";

/**
 * The one place that turns a thrown error into a page: not found (whatever the reason, a private
 * thing included) is the 404 page; a refusal the 403 page with its reason; bad input the 400 page
 * with its message; an outage (the database unreachable, git busy) the 503 page with its reason
 * and Retry-After; anything unexpected is logged and answered with the 500 page, without internals.
 */
export function errorResponse(c: WebContext, err: unknown): Response | Promise<Response> {
  if (isKilnError(err)) {
    switch (err.kind) {
      case "not_found":
        return errorPage(c, 404);
      case "permission_denied":
        return errorPage(c, 403, err.message);
      case "unauthorized":
        return seeOther(c, `/user/login?redirect_to=${encodeURIComponent(here(c))}`);
      case "payload_too_large":
        return errorPage(c, 413);
      case "bad_request":
      case "invalid_argument":
        return errorPage(c, 400, err.message);
      case "unavailable":
        // The database or git is unreachable or busy for now: the reason, and when to try again.
        c.header("Retry-After", String((err as { retryAfterSeconds?: number }).retryAfterSeconds ?? 5));
        return errorPage(c, 503, err.message);
      default:
        break;
    }
  }
  const error = err instanceof Error ? err : new Error(String(err));
  c.get("logger").error(
    { err: { message: error.message, stack: error.stack }, path: c.req.path },
    "page error",
  );
  return errorPage(c, 500 as ErrorStatus);
}
