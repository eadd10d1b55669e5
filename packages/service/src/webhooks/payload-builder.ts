import type { Repository, Settings, User } from "@kiln/domain";
import { accountSight } from "../access/account-rules.js";
import { toApiComment } from "../convert/comment.js";
import { repoLinks, toPayloadCommit } from "../convert/git.js";
import { ghostUser, toApiIssue } from "../convert/issue.js";
import { toApiPackage } from "../convert/package.js";
import { toApiPullRequest } from "../convert/pull.js";
import { toApiRelease } from "../convert/release.js";
import { toApiRepository, withMirror } from "../convert/repository.js";
import { toApiUser } from "../convert/user.js";
import type { CommitUsers } from "../git/commit-users.js";
import type { EventSubject } from "./event-subject.js";
import type { HookPayload } from "./webhook-payloads.js";

/** Forgejo's review payload `type` for each review event (its HookEventType string). */
const REVIEW_TYPES: Readonly<Record<string, string>> = {
  pull_request_review_approved: "pull_request_review_approved",
  pull_request_review_rejected: "pull_request_review_rejected",
  pull_request_review_comment: "pull_request_review_comment",
};

/** A receiver reads payloads as an anonymous reader of the API does: no e-mail addresses, no private fields. */
const ANON = accountSight(null);

/**
 * Forgejo's webhook payloads (modules/structs/hook.go), built with the API's converters as a
 * receiver sees them: the webhook queue renders each queued delivery's body from these.
 */
export class PayloadBuilder {
  constructor(private readonly settings: Settings) {}

  build(subject: EventSubject): HookPayload {
    const { event, settings } = { event: subject.event, settings: this.settings };
    const sender = this.user(subject.sender);
    const repository =
      subject.repo && subject.repoOwner
        ? withMirror(this.repo(subject.repo, subject.repoOwner), subject.repoMirror)
        : null;
    switch (event.type) {
      case "push": {
        const push = subject.push ?? { commits: [], total: 0, accounts: new Map(), files: new Map() };
        const repo = subject.repo as Repository;
        const links = repoLinks(repo, settings);
        const accounts: CommitUsers = new Map(
          push.commits.flatMap((c) =>
            [c.author.email, c.committer.email].flatMap((email) => {
              const user = push.accounts.get(email.toLowerCase());
              return user ? [[email, user] as const] : [];
            }),
          ),
        );
        const commits = push.commits.map((c) => ({
          ...toPayloadCommit(c, accounts, links),
          ...(push.files.get(c.sha) ?? { added: [], removed: [], modified: [] }),
        }));
        return {
          ref: event.ref,
          before: event.before,
          after: event.after,
          compare_url:
            event.before === event.after ? "" : `${links.html}/compare/${event.before}...${event.after}`,
          commits,
          total_commits: push.total,
          head_commit: commits[0] ?? null,
          repository,
          pusher: sender,
          sender,
        };
      }
      // The full ref, as Forgejo stores these payloads; `gitea` hooks are sent the short name.
      case "create":
        return { sha: event.sha, ref: fullRef(event), ref_type: event.refType, repository, sender };
      case "delete":
        return { ref: fullRef(event), ref_type: event.refType, pusher_type: "user", repository, sender };
      case "fork":
        // Forgejo's ForkPayload: `forkee` is the repository forked, `repo` the new fork.
        return {
          forkee: repository,
          repo: subject.fork ? this.repo(subject.fork.repo, subject.fork.owner) : repository,
          sender,
        };
      case "repository":
        return {
          action: event.action,
          repository,
          organization: subject.repoOwner ? this.user(subject.repoOwner) : null,
          sender,
        };
      case "wiki":
        return { action: event.action, repository, sender, page: event.page, comment: event.comment };
      case "release": {
        const release = subject.release;
        return {
          action: event.action,
          release: release
            ? toApiRelease(
                release.row,
                subject.repo as Repository,
                release.assets,
                release.publisher,
                ANON,
                settings,
              )
            : null,
          repository,
          sender,
        };
      }
      case "package": {
        const pkg = subject.package;
        return {
          action: event.action,
          package: pkg
            ? toApiPackage(
                { ...pkg.version, owner: pkg.owner, creator: pkg.creator, repository: null },
                ANON,
                settings,
              )
            : null,
          sender,
        };
      }
      default:
        return this.issueLike(subject, repository, sender);
    }
  }

  private issueLike(subject: EventSubject, repository: unknown, sender: unknown): HookPayload {
    const { event } = subject;
    const settings = this.settings;
    const action = "action" in event ? event.action : "";
    const issueView = subject.issue;
    if (!issueView) return { action, repository, sender };
    const number = issueView.issue.index;
    const changes = "changes" in event && event.changes ? event.changes : undefined;
    const pull =
      subject.pull && subject.repo && subject.repoOwner
        ? toApiPullRequest(
            subject.pull,
            new Map([[subject.repo.id, this.repo(subject.repo, subject.repoOwner)]]),
            ANON,
            settings,
          )
        : undefined;
    if (event.type === "issue_comment" || event.type === "pull_request_comment") {
      const issue = toApiIssue(issueView, ANON, settings);
      const comment = subject.comment
        ? toApiComment(
            { comment: subject.comment, issueIndex: number, isPull: issueView.issue.isPull },
            subject.repo as Repository,
            subject.sender,
            settings,
          )
        : null;
      return {
        action,
        issue,
        ...(pull ? { pull_request: pull } : {}),
        comment,
        ...(changes ? { changes } : {}),
        repository,
        sender,
        is_pull: issueView.issue.isPull,
      };
    }
    if (pull) {
      const review = subject.review;
      return {
        action,
        number,
        ...(changes ? { changes } : {}),
        pull_request: pull,
        ...(event.type === "pull_request_review_request" && subject.user
          ? { requested_reviewer: this.user(subject.user) }
          : {}),
        repository,
        sender,
        commit_id: "",
        ...(review && REVIEW_TYPES[event.type]
          ? { review: { type: REVIEW_TYPES[event.type], content: review.content } }
          : {}),
      };
    }
    return {
      action,
      number,
      ...(changes ? { changes } : {}),
      issue: toApiIssue(issueView, ANON, settings),
      repository,
      sender,
      commit_id: "",
    };
  }

  private user(user: User | null) {
    return user ? toApiUser(user, ANON, this.settings) : ghostUser(this.settings);
  }

  private repo(repo: Repository, owner: User) {
    return toApiRepository(repo, owner, ANON, undefined, this.settings);
  }
}

/** `refs/heads/…` or `refs/tags/…` of a created or deleted ref (the event carries its short name). */
function fullRef(event: { readonly refType: "branch" | "tag"; readonly ref: string }): string {
  return `${event.refType === "branch" ? "refs/heads/" : "refs/tags/"}${event.ref}`;
}
