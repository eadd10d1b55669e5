import { InvalidArgumentError } from "@kiln/domain";
import type { StoredHookEvent } from "@kiln/storage";
import { HOOK_EVENT_TYPES, type HookEventType } from "../events/event.js";

/**
 * The Forgejo HookEvents flag (modules/webhook/structs.go) that decides a granular event: one
 * `pull_request_review` flag decides the three review events, as in Forgejo; every other event
 * has a flag of its own name.
 */
function flagOf(type: HookEventType): string {
  return type.startsWith("pull_request_review_") && type !== "pull_request_review_request"
    ? "pull_request_review"
    : type;
}

/** The flags `issues` selects all of, and those `pull_request` does, derived from the one list. */
const FLAGS = [...new Set(HOOK_EVENT_TYPES.map(flagOf))];
const ISSUE_FLAGS = FLAGS.filter((flag) => flag.startsWith("issue"));
const PULL_FLAGS = FLAGS.filter((flag) => flag.startsWith("pull_request"));

/** Names a hook's `events` may hold beyond the granular ones (Forgejo's API reads them too). */
const EXTRA_NAMES = new Set(["issues_only", "pull_request_only", "pull_request_review"]);

/**
 * Turns the API's `events` list into the stored selection, as Forgejo's addHook/editHook:
 * empty means `push`; `issues` selects every issue event and `pull_request` every pull request
 * event (`issues_only`, `pull_request_only` select just the one); `pull_request_review` or any
 * of the three review names selects the review events. Names are matched case-insensitively.
 * An unknown name is 422 (Forgejo ignores it; Kiln says so rather than drop a typo silently).
 */
export function parseHookEvents(names: readonly string[] | undefined): StoredHookEvent {
  const list = (names && names.length > 0 ? names : ["push"]).map((n) => n.toLowerCase());
  for (const name of list) {
    if (!(HOOK_EVENT_TYPES as readonly string[]).includes(name) && !EXTRA_NAMES.has(name)) {
      throw new InvalidArgumentError(`Invalid event: ${name}`);
    }
  }
  const has = (name: string) => list.includes(name);
  const events: Record<string, boolean> = {};
  for (const type of HOOK_EVENT_TYPES) {
    const flag = flagOf(type);
    events[flag] = (events[flag] ?? false) || has(type);
  }
  events.pull_request_review = has("pull_request_review") || events.pull_request_review === true;
  const issuesAll = has("issues");
  const pullsAll = has("pull_request");
  for (const flag of ISSUE_FLAGS)
    events[flag] = issuesAll || (flag === "issues" ? has("issues_only") : !!events[flag]);
  for (const flag of PULL_FLAGS)
    events[flag] = pullsAll || (flag === "pull_request" ? has("pull_request_only") : !!events[flag]);
  return { push_only: false, send_everything: false, choose_events: true, events };
}

/** Whether a hook with this selection fires for an event type (Forgejo's Has…Event). */
export function hookWants(selection: StoredHookEvent, type: HookEventType): boolean {
  if (selection.send_everything) return true;
  if (selection.push_only) return type === "push";
  return selection.choose_events && selection.events[flagOf(type)] === true;
}

/** The granular event names a selection fires for, in Forgejo's order (its EventsArray). */
export function hookEventNames(selection: StoredHookEvent): string[] {
  return HOOK_EVENT_TYPES.filter((type) => hookWants(selection, type));
}

/**
 * The `X-Forgejo-Event` header of an event type (Forgejo's HookEventType.Event): the family a
 * receiver dispatches on, while `X-Forgejo-Event-Type` carries the granular type.
 */
export function eventHeader(type: HookEventType): string {
  switch (type) {
    case "issues":
    case "issue_assign":
    case "issue_label":
    case "issue_milestone":
      return "issues";
    case "pull_request":
    case "pull_request_assign":
    case "pull_request_label":
    case "pull_request_milestone":
    case "pull_request_sync":
    case "pull_request_review_request":
      return "pull_request";
    case "issue_comment":
    case "pull_request_comment":
      return "issue_comment";
    case "pull_request_review_approved":
      return "pull_request_approved";
    case "pull_request_review_rejected":
      return "pull_request_rejected";
    case "pull_request_review_comment":
      return "pull_request_comment";
    default:
      return type;
  }
}
