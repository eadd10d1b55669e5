/** A Forgejo webhook payload (PushPayload, IssuePayload, …) as plain JSON. */
export type HookPayload = Readonly<Record<string, unknown>>;
