/**
 * The forge's events: every state change that Forgejo turns into a notification, a webhook
 * delivery or an activity-feed entry. A service records one with `ctx.events.record(trx, event)`
 * inside the transaction of the change, so the change and everything it causes commit together
 * (a crash loses neither). Consumers (the webhook queue, the activity feed, …) run in that same
 * transaction and read what they need through `trx`.
 *
 * An event names what changed by id; consumers load the rows they need. A deletion is recorded
 * before the row is deleted, in the same transaction, so consumers can still read it.
 *
 * `type` is Forgejo's webhook event type (modules/webhook/type.go HookEventType) and `action` the
 * payload's `action` (modules/structs/hook.go HookIssueAction and friends).
 */

/**
 * Forgejo's granular webhook event types, exactly as a hook's `events` names them, in the order of
 * its EventsArray (what `GET …/hooks` lists).
 */
export const HOOK_EVENT_TYPES = [
  "create",
  "delete",
  "fork",
  "push",
  "issues",
  "issue_assign",
  "issue_label",
  "issue_milestone",
  "issue_comment",
  "pull_request",
  "pull_request_assign",
  "pull_request_label",
  "pull_request_milestone",
  "pull_request_comment",
  "pull_request_review_approved",
  "pull_request_review_rejected",
  "pull_request_review_comment",
  "pull_request_sync",
  "wiki",
  "repository",
  "release",
  "package",
  "pull_request_review_request",
] as const;
export type HookEventType = (typeof HOOK_EVENT_TYPES)[number];

/** What every event carries. */
export interface EventBase {
  /** The repository the event happened in; null for events without one (a package of a user). */
  readonly repoId: number | null;
  /** The owner (user or organization) of that repository or package: org and user hooks match on it. */
  readonly ownerId: number;
  /** Who made the change. */
  readonly actorId: number;
  readonly at: Date;
}

/** Title/body edits, as Forgejo's payload `changes` (`{ title: { from } }`). */
export interface EventChanges {
  readonly title?: { readonly from: string };
  readonly body?: { readonly from: string };
  readonly ref?: { readonly from: string };
}

/** A commit a push brought, as Forgejo's PushCommit names its parts. */
export interface PushedCommit {
  readonly sha: string;
  readonly message: string;
  readonly authorName: string;
  readonly authorEmail: string;
  readonly committerName: string;
  readonly committerEmail: string;
  readonly timestamp: Date;
}

export type ForgeEvent = EventBase &
  (
    | {
        /** Commits pushed to one ref (git push, a file written through the API, a merge). */
        readonly type: "push";
        /** Full ref name, `refs/heads/main` or `refs/tags/v1`. */
        readonly ref: string;
        /** 40 zeros when the ref was created. */
        readonly before: string;
        /** 40 zeros when the ref was deleted. */
        readonly after: string;
        /**
         * The newest commits the push brought, newest first (at most 5, Forgejo's
         * `[ui] FEED_MAX_COMMIT_NUM`), read from git before the transaction; absent when unknown
         * (a tag, a deletion, git could not tell).
         */
        readonly commits?: readonly PushedCommit[];
        /** How many commits the push brought in all (with `commits`). */
        readonly totalCommits?: number;
        /** Set when a pull mirror's sync moved the ref (Forgejo's SyncPushCommits): the actor is the owner. */
        readonly mirrorSync?: true;
      }
    | {
        readonly type: "create" | "delete";
        readonly refType: "branch" | "tag";
        /** Short name, `main` or `v1`. */
        readonly ref: string;
        readonly sha: string;
        /** Set when a pull mirror's sync made or removed the ref (Forgejo's SyncCreateRef/SyncDeleteRef). */
        readonly mirrorSync?: true;
      }
    | {
        readonly type: "issues" | "pull_request";
        readonly action: "opened" | "edited" | "closed" | "reopened" | "deleted" | "synchronized";
        readonly issueId: number;
        readonly changes?: EventChanges;
        /** The timeline entry the change wrote (a close, a merge, a base change) that notifications point at. */
        readonly commentId?: number;
        /** Set when no doer is known and the owner stands in as actor: nobody is notified in the owner's name. */
        readonly ownerStandsIn?: true;
      }
    | {
        readonly type: "issue_assign" | "pull_request_assign";
        readonly action: "assigned" | "unassigned";
        readonly issueId: number;
        readonly assigneeId: number;
      }
    | {
        readonly type: "issue_label" | "pull_request_label";
        readonly action: "label_updated" | "label_cleared";
        readonly issueId: number;
      }
    | {
        readonly type: "issue_milestone" | "pull_request_milestone";
        readonly action: "milestoned" | "demilestoned";
        readonly issueId: number;
        /** The milestone set, or the one removed. */
        readonly milestoneId: number;
      }
    | {
        readonly type: "issue_comment" | "pull_request_comment";
        readonly action: "created" | "edited" | "deleted";
        readonly issueId: number;
        readonly commentId: number;
        readonly changes?: EventChanges;
      }
    | {
        readonly type:
          | "pull_request_review_approved"
          | "pull_request_review_rejected"
          | "pull_request_review_comment";
        readonly action: "reviewed";
        readonly issueId: number;
        readonly reviewId: number;
        /** The review's timeline entry, which notifications point at. */
        readonly commentId?: number;
      }
    | {
        readonly type: "pull_request_sync";
        readonly action: "synchronized";
        readonly issueId: number;
        /** The timeline entry of the push, which notifications point at. */
        readonly commentId?: number;
        /** Set when the pusher is unknown and the owner stands in as actor: nobody is notified. */
        readonly ownerStandsIn?: true;
      }
    | {
        readonly type: "pull_request_review_request";
        readonly action: "review_requested" | "review_request_removed";
        readonly issueId: number;
        /** The user asked (team requests carry the team instead). */
        readonly reviewerId: number | null;
        readonly teamId: number | null;
      }
    | {
        readonly type: "release";
        readonly action: "published" | "updated" | "deleted";
        readonly releaseId: number;
      }
    | {
        readonly type: "package";
        readonly action: "created" | "deleted";
        /** The package version's id. */
        readonly packageVersionId: number;
      }
    | {
        readonly type: "repository";
        readonly action: "created" | "deleted";
      }
    | {
        readonly type: "fork";
        readonly action?: string;
        /** The new fork (the event is the parent's, as Forgejo's ForkPayload: forkee and repo). */
        readonly forkRepoId?: number;
      }
    | {
        /** A wiki page written through the API (Forgejo's NewWikiPage/EditWikiPage/DeleteWikiPage). */
        readonly type: "wiki";
        readonly action: "created" | "edited" | "deleted";
        /** The page's web path (`Home-Page`). */
        readonly page: string;
        /** The commit message (empty for a deletion, as Forgejo's payload). */
        readonly comment: string;
      }
    | IssueTouchedEvent
  );

/**
 * A change of an issue or pull request that Forgejo announces to no webhook and no feed, but that
 * concerns its participants: a due date set or removed, an edit that changed nothing a hook
 * reports, a line comment on a submitted review, a review dismissed. Only notifications act on it;
 * it is not a hook event type, so the webhook queue skips it.
 */
export interface IssueTouchedEvent extends EventBase {
  readonly type: "issue_touched";
  readonly issueId: number;
  readonly isPull: boolean;
  /** The timeline entry the change wrote, if notifications point at one. */
  readonly commentId: number | null;
}

/** An event a webhook may be sent for: every event but the internal ones. */
export type HookEvent = Exclude<ForgeEvent, IssueTouchedEvent>;

/** Whether webhooks may be sent for an event (its type is one of Forgejo's hook event types). */
export function isHookEvent(event: ForgeEvent): event is HookEvent {
  return event.type !== "issue_touched";
}
