import { type CommitInfo, type GitRepository, getCommitInfos, type RefUpdate, rangeCommits } from "@kiln/git";
import type { Db } from "@kiln/storage";
import type { EventBase, PushedCommit } from "./event.js";
import type { EventRecorder } from "./recorder.js";

const ZERO = /^0+$/;

/**
 * Records the events of ref updates as Forgejo's pushUpdates notifies them: a branch's `create`
 * before its `push`, its deletion as `delete` alone; a tag's `push` (with 40 zeros after, when
 * deleted) before its `create` or `delete`. Other refs (`refs/pull/…`, notes) fire nothing.
 */
export async function recordRefUpdates(
  events: EventRecorder,
  trx: Db,
  base: EventBase,
  updates: readonly RefUpdate[],
  pushed: ReadonlyMap<string, PushedCommits> = new Map(),
): Promise<void> {
  for (const update of updates) {
    const isTag = update.ref.startsWith("refs/tags/");
    if (!isTag && !update.ref.startsWith("refs/heads/")) continue;
    const refType = isTag ? "tag" : "branch";
    const ref = update.ref.slice(isTag ? "refs/tags/".length : "refs/heads/".length);
    const created = ZERO.test(update.oldSha);
    const deleted = ZERO.test(update.newSha);
    if (created && deleted) continue;
    const brought = pushed.get(update.ref);
    const push = {
      ...base,
      type: "push",
      ref: update.ref,
      before: update.oldSha,
      after: update.newSha,
      ...(brought ? { commits: brought.commits, totalCommits: brought.total } : {}),
    } as const;
    const change = deleted
      ? ({ ...base, type: "delete", refType, ref, sha: update.oldSha } as const)
      : created
        ? ({ ...base, type: "create", refType, ref, sha: update.newSha } as const)
        : undefined;
    if (isTag) {
      await events.record(trx, push);
      if (change) await events.record(trx, change);
    } else {
      if (change) await events.record(trx, change);
      if (!deleted) await events.record(trx, push);
    }
  }
}

/** The commits a branch update brought: the newest few and how many. */
export interface PushedCommits {
  readonly commits: readonly PushedCommit[];
  readonly total: number;
}

/** Forgejo's `[ui] FEED_MAX_COMMIT_NUM`: how many commits a push's feed entry keeps. */
const FEED_MAX_COMMITS = 5;

/**
 * The commits each branch update brought, read from git before the transaction that records
 * them (a new branch: its head commit; a moved one: what is new since the old head, newest first).
 * Best effort: an update git cannot describe is left out, and its push event carries none.
 */
export async function describePushes(
  git: GitRepository,
  updates: readonly RefUpdate[],
): Promise<Map<string, PushedCommits>> {
  const out = new Map<string, PushedCommits>();
  for (const update of updates) {
    if (!update.ref.startsWith("refs/heads/") || ZERO.test(update.newSha)) continue;
    try {
      if (ZERO.test(update.oldSha)) {
        const [head] = await getCommitInfos(git, [update.newSha]);
        if (head) out.set(update.ref, { commits: [pushedCommit(head)], total: 1 });
      } else {
        const range = await rangeCommits(git, update.oldSha, update.newSha, {
          skip: 0,
          limit: FEED_MAX_COMMITS,
        });
        out.set(update.ref, { commits: range.commits.map(pushedCommit), total: range.total });
      }
    } catch {
      // An object git no longer has (a concurrent force push): the event goes without commits.
    }
  }
  return out;
}

function pushedCommit(commit: CommitInfo): PushedCommit {
  return {
    sha: commit.sha,
    message: commit.message,
    authorName: commit.author.name,
    authorEmail: commit.author.email,
    committerName: commit.committer.name,
    committerEmail: commit.committer.email,
    timestamp: new Date(commit.author.timestamp * 1000),
  };
}
