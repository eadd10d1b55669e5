import type { EventSubject } from "./event-subject.js";

/** A Forgejo webhook payload (PushPayload, IssuePayload, …) as plain JSON. */
export type HookPayload = Readonly<Record<string, unknown>>;

/**
 * The port through which the webhook queue gets its payloads in the API's shapes: the service
 * loads an event's subject through the transaction of the change; the HTTP layer implements this
 * with its converters (repository, user, issue, pull request, comment, release, package, commits)
 * and hands it to {@link WebhookService.usePayloads} when it builds the app.
 */
export interface WebhookPayloads {
  /** The payload of an event whose subject was loaded. */
  build(subject: EventSubject): HookPayload;
}
