import type { Comment, Repository, Review, User } from "@kiln/domain";
import { type CommitInfo, getCommit, listCommits, rangeCommits } from "@kiln/git";
import {
  type AttachmentRow,
  attachments,
  comments,
  type Db,
  issues,
  mirrors,
  packages,
  pulls,
  type ReleaseRow,
  releases,
  repositories,
  reviews,
  users,
  type VersionOfPackage,
  webhooks,
} from "@kiln/storage";
import type { ForgeEvent } from "../events/event.js";
import { type IssueView, loadIssueViews } from "../issues/issue-views.js";
import type { PullMirrorView } from "../mirrors/pull-mirror-service.js";
import { loadPullViews, type PullView } from "../pulls/pull-views.js";
import type { RepoService } from "../repos/repo-service.js";

/**
 * Most commits a push payload lists (Forgejo's `[ui] FEED_MAX_COMMIT_NUM`, default 5, caps the
 * commits its push notifications carry); `total_commits` still counts them all.
 */
export const PUSH_PAYLOAD_MAX_COMMITS = 5;

const ZERO = "0".repeat(40);

/** Everything an event's payload shows, loaded through the transaction of the change. */
export interface EventSubject {
  readonly event: ForgeEvent;
  readonly sender: User | null;
  readonly repo: Repository | null;
  readonly repoOwner: User | null;
  /** The repository's pull mirror row, when it is a pull mirror (its payload shows the interval). */
  readonly repoMirror?: PullMirrorView;
  /** The issue (or the pull request's issue) the event is about. */
  readonly issue?: IssueView;
  readonly pull?: PullView;
  readonly comment?: Comment;
  readonly review?: Review;
  readonly user?: User | null;
  readonly release?: {
    readonly row: ReleaseRow;
    readonly assets: readonly AttachmentRow[];
    readonly publisher: User | null;
  };
  readonly package?: {
    readonly version: VersionOfPackage;
    readonly owner: User;
    readonly creator: User | null;
  };
  /** Of a `fork` event: the new fork and its owner (the event's `repo` is the parent). */
  readonly fork?: { readonly repo: Repository; readonly owner: User };
  readonly push?: {
    readonly commits: readonly CommitInfo[];
    readonly total: number;
    /** Accounts of the commits' authors and committers, by lower-cased e-mail address. */
    readonly accounts: ReadonlyMap<string, User>;
    /** Files each listed commit added, removed and modified (against its first parent), by sha. */
    readonly files: ReadonlyMap<string, { added: string[]; removed: string[]; modified: string[] }>;
  };
}

/** A pull mirror's interval, last sync and address, for the repository in a payload. */
export async function mirrorViewOf(trx: Db, repo: Repository): Promise<PullMirrorView | undefined> {
  if (!repo.isMirror) return undefined;
  const row = await mirrors.findMirror(trx, repo.id);
  return row
    ? { intervalMs: row.intervalMs, updatedAt: row.updatedAt, address: row.remoteAddress }
    : undefined;
}

/**
 * Loads an event's subject, or null when it is gone (a deleted issue, a repository removed in the
 * same transaction): a webhook for a vanished subject is skipped, as Forgejo skips it.
 */
export async function loadEventSubject(
  trx: Db,
  repos: RepoService,
  event: ForgeEvent,
): Promise<EventSubject | null> {
  const repo =
    event.repoId === null ? null : ((await repositories.findRepositoryById(trx, event.repoId)) ?? null);
  if (event.repoId !== null && !repo) return null;
  const [sender, repoOwner] = await Promise.all([
    users.findUserById(trx, event.actorId),
    repo ? users.findUserById(trx, repo.ownerId) : Promise.resolve(undefined),
  ]);
  const repoMirror = repo ? await mirrorViewOf(trx, repo) : undefined;
  const base = {
    event,
    sender: sender ?? null,
    repo,
    repoOwner: repoOwner ?? null,
    ...(repoMirror ? { repoMirror } : {}),
  };
  if ("issueId" in event && repo) {
    const issue = await issues.findIssueById(trx, event.issueId);
    if (!issue) return null;
    let pull: PullView | undefined;
    let issueView: IssueView | undefined;
    if (issue.isPull) {
      const [row] = await pulls.findPullsByIssueIds(trx, [issue.id]);
      if (!row) return null;
      [pull] = await loadPullViews(trx, await repos.git(repo), repo, [{ issue, pull: row }], {
        headGit: (head) => repos.git(head).catch(() => undefined),
      });
      issueView = pull?.issue;
    } else {
      [issueView] = await loadIssueViews(trx, [issue], [repo]);
    }
    if (!issueView) return null;
    const extra: { comment?: Comment; review?: Review; user?: User | null } = {};
    if (event.type === "issue_comment" || event.type === "pull_request_comment") {
      const found = await comments.findComment(trx, event.commentId);
      if (found) extra.comment = found;
    }
    if ("reviewId" in event) {
      const found = await reviews.findReviewById(trx, event.reviewId);
      if (found) extra.review = found;
    }
    const userId = "assigneeId" in event ? event.assigneeId : "reviewerId" in event ? event.reviewerId : null;
    if (userId !== null) extra.user = (await users.findUserById(trx, userId)) ?? null;
    return { ...base, issue: issueView, ...(pull ? { pull } : {}), ...extra };
  }
  if (event.type === "release" && repo) {
    const row = await releases.findRelease(trx, repo.id, event.releaseId);
    if (!row) return null;
    const [assets, publisher] = await Promise.all([
      attachments.attachmentsOfReleases(trx, [row.id]),
      row.publisherId === null ? Promise.resolve(undefined) : users.findUserById(trx, row.publisherId),
    ]);
    return { ...base, release: { row, assets, publisher: publisher ?? null } };
  }
  if (event.type === "package") {
    const found = await webhooks.packageVersionById(trx, event.packageVersionId);
    if (!found) return null;
    const version = (await packages.versionsOfPackage(trx, found.packageId)).find(
      (v) => v.version.id === event.packageVersionId,
    );
    const owner = await users.findUserById(trx, event.ownerId);
    if (!version || !owner) return null;
    const creator =
      version.version.creatorId === null
        ? undefined
        : await users.findUserById(trx, version.version.creatorId);
    return { ...base, package: { version, owner, creator: creator ?? null } };
  }
  if (event.type === "fork" && event.forkRepoId !== undefined) {
    const forkRepo = await repositories.findRepositoryById(trx, event.forkRepoId);
    const forkOwner = forkRepo ? await users.findUserById(trx, forkRepo.ownerId) : undefined;
    if (!forkRepo || !forkOwner) return null;
    return { ...base, fork: { repo: forkRepo, owner: forkOwner } };
  }
  if (event.type === "push" && repo) {
    return { ...base, push: await pushCommits(trx, repos, repo, event.before, event.after) };
  }
  return base;
}

/** The commits of a push, newest first, at most {@link PUSH_PAYLOAD_MAX_COMMITS}, and their accounts. */
export async function pushCommits(
  trx: Db,
  repos: RepoService,
  repo: Repository,
  before: string,
  after: string,
): Promise<NonNullable<EventSubject["push"]>> {
  if (after === ZERO) return { commits: [], total: 0, accounts: new Map(), files: new Map() };
  const git = await repos.git(repo);
  let found: { commits: readonly CommitInfo[]; total: number };
  if (before === ZERO) {
    // A new ref: Forgejo lists the commits no other branch has; Kiln lists the tip's newest
    // commits (capped), and counts those listed.
    const page = await listCommits(git, { sha: after, limit: PUSH_PAYLOAD_MAX_COMMITS }).catch(
      () => undefined,
    );
    found = { commits: page?.commits ?? [], total: page?.commits.length ?? 0 };
  } else {
    found = await rangeCommits(git, before, after, { skip: 0, limit: PUSH_PAYLOAD_MAX_COMMITS }).catch(
      () => ({
        commits: [],
        total: 0,
      }),
    );
  }
  const accounts = await users.findUsersByEmails(
    trx,
    found.commits.flatMap((c) => [c.author.email, c.committer.email]),
  );
  const files = new Map<string, { added: string[]; removed: string[]; modified: string[] }>();
  for (const commit of found.commits) {
    const detail = await getCommit(git, commit.sha).catch(() => undefined);
    const of = (status: string) =>
      (detail?.files ?? []).filter((f) => f.status === status).map((f) => f.filename);
    files.set(commit.sha, { added: of("added"), removed: of("removed"), modified: of("modified") });
  }
  return {
    commits: found.commits,
    total: found.total,
    accounts,
    files,
  };
}
