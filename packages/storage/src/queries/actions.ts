import type { Paged, PageRequest } from "@kiln/domain";
import { ActionType } from "@kiln/domain";
import { type Insertable, sql } from "kysely";
import type { Db } from "../database.js";
import type { ActionRow, ActionTable } from "../database-attachments.js";
import { pageOf } from "./paging.js";
import { type RepoViewer, repoVisibleTo } from "./repo-visibility.js";

export { ActionType, type ActionTypeName, actionTypeName } from "@kiln/domain";

export type NewAction = Insertable<ActionTable>;

/** The repository facts a feed entry needs: privacy, owner and whether the owner is an organization. */
export async function feedRepository(db: Db, repoId: number) {
  return db
    .selectFrom("repository")
    .innerJoin("users as owner", "owner.id", "repository.ownerId")
    .select([
      "repository.id",
      "repository.isPrivate",
      "repository.ownerId",
      "repository.ownerName",
      "repository.name",
      "owner.type as ownerType",
    ])
    .where("repository.id", "=", repoId)
    .executeTakeFirst();
}

/**
 * Forgejo's NotifyWatchers: one copy of the entry per feed that shows it — the actor's, the
 * repository owner's when it is an organization (and not the actor), and every watcher's
 * (modes 1 and 3) — in one statement.
 */
export async function insertForWatchers(
  db: Db,
  entry: Omit<NewAction, "userId">,
  orgOwnerId: number | null,
): Promise<void> {
  const actorId = entry.actUserId ?? 0;
  const watchers = await db
    .selectFrom("watch")
    .select("userId")
    .where("repoId", "=", entry.repoId ?? 0)
    .where("mode", "in", [1, 3])
    .execute();
  const feeds = new Set<number>([actorId]);
  if (orgOwnerId !== null) feeds.add(orgOwnerId);
  for (const w of watchers) feeds.add(Number(w.userId));
  await db
    .insertInto("action")
    .values([...feeds].map((userId) => ({ ...entry, userId })))
    .execute();
}

/** Marks the entries of a deleted comment deleted (Forgejo's DeleteComment). */
export async function markCommentDeleted(db: Db, commentId: number): Promise<void> {
  await db.updateTable("action").set({ isDeleted: true }).where("commentId", "=", commentId).execute();
}

/**
 * Removes the entries of a deleted issue (Forgejo's DeleteIssueActions): those of its comments
 * and its creation (`index|title`).
 */
export async function deleteIssueActions(db: Db, repoId: number, issueId: number, index: number) {
  await db
    .deleteFrom("action")
    .where("commentId", "in", (eb) => eb.selectFrom("comment").select("id").where("issueId", "=", issueId))
    .execute();
  await db
    .deleteFrom("action")
    .where("repoId", "=", repoId)
    .where("opType", "in", [ActionType.create_issue, ActionType.create_pull_request])
    .where("content", "like", `${index}|%`)
    .execute();
}

/** What a feed is asked for (Forgejo's GetFeedsOptions). */
export interface FeedFilter {
  /** Whose feed: `action.user_id`. */
  readonly userId?: number | undefined;
  /** A repository's feed: its entries as their actors recorded them (user_id = act_user_id). */
  readonly repoId?: number | undefined;
  /** Only entries of a team's repositories (all of its organization's when it includes all). */
  readonly team?: { readonly id: number; readonly orgId: number; readonly all: boolean } | undefined;
  /** Only entries the feed's user made. */
  readonly onlyPerformedBy?: boolean | undefined;
  readonly includePrivate: boolean;
  /** [from, to) of the day asked for. */
  readonly window?: { readonly from: Date; readonly to: Date } | undefined;
}

/**
 * A page of feed entries, newest first, filtered for the viewer as Forgejo's activityQueryCondition:
 * only entries of repositories the viewer may see (the access module's fragment) and only of
 * actors whose activity is visible to it (anonymous: public accounts that do not hide their
 * activity; signed in: also limited ones, itself, and the organization whose feed it is).
 */
export async function listFeed(
  db: Db,
  filter: FeedFilter,
  viewer: RepoViewer,
  page: PageRequest,
): Promise<Paged<ActionRow>> {
  const query = feedQuery(db, filter, viewer).where("action.isDeleted", "=", false);
  return pageOf(
    query,
    (q) => q.selectAll("action").orderBy("action.createdAt", "desc").orderBy("action.id", "desc"),
    page,
  );
}

/** One bucket of a heatmap: the start of a quarter hour (Unix seconds) and the entries in it. */
export interface HeatmapBucket {
  readonly timestamp: number;
  readonly contributions: number;
}

/**
 * Forgejo's heatmap: the feed entries since `since` that the viewer may see (deleted ones
 * included, as Forgejo counts them), counted per quarter hour, oldest first.
 */
export async function heatmap(
  db: Db,
  filter: FeedFilter,
  viewer: RepoViewer,
  since: Date,
): Promise<HeatmapBucket[]> {
  const bucket = sql<number>`floor(extract(epoch from action.created_at) / 900) * 900`;
  const rows = await feedQuery(db, filter, viewer)
    .where("action.createdAt", ">", since)
    .select([bucket.as("timestamp"), (eb) => eb.fn.countAll().as("contributions")])
    .groupBy(bucket)
    .orderBy(bucket)
    .execute();
  return rows.map((row) => ({ timestamp: Number(row.timestamp), contributions: Number(row.contributions) }));
}

/** The feed entries `filter` selects that `viewer` may see (see {@link listFeed}). */
function feedQuery(db: Db, filter: FeedFilter, viewer: RepoViewer) {
  let query = db
    .selectFrom("action")
    .innerJoin("repository", "repository.id", "action.repoId")
    .where(repoVisibleTo(viewer));
  if (!viewer?.isAdmin) {
    const visibilities = viewer ? ["public", "limited"] : ["public"];
    query = query.where((eb) =>
      eb.or([
        eb(
          "action.actUserId",
          "in",
          eb
            .selectFrom("users as actor")
            .select("actor.id")
            .where("actor.hideActivity", "=", false)
            .where("actor.visibility", "in", visibilities as ("public" | "limited")[]),
        ),
        ...(viewer ? [eb("action.actUserId", "=", viewer.id)] : []),
        ...(filter.userId !== undefined ? [eb("action.actUserId", "=", filter.userId)] : []),
      ]),
    );
  }
  if (filter.userId !== undefined) {
    query = query.where("action.userId", "=", filter.userId);
    if (filter.onlyPerformedBy) query = query.where("action.actUserId", "=", filter.userId);
  }
  if (filter.repoId !== undefined) {
    query = query
      .where("action.repoId", "=", filter.repoId)
      .whereRef("action.userId", "=", sql.ref("action.actUserId"));
  }
  const team = filter.team;
  if (team) {
    query = team.all
      ? query.where("repository.ownerId", "=", team.orgId)
      : query.where("action.repoId", "in", (eb) =>
          eb.selectFrom("teamRepo").select("teamRepo.repoId").where("teamRepo.teamId", "=", team.id),
        );
  }
  if (!filter.includePrivate) query = query.where("action.isPrivate", "=", false);
  if (filter.window) {
    query = query
      .where("action.createdAt", ">=", filter.window.from)
      .where("action.createdAt", "<", filter.window.to);
  }
  return query;
}

/** The entries of a repository's feed as their actors recorded them, newest first (for tests and tools). */
export async function actionsOfRepository(db: Db, repoId: number, limit: number) {
  return db
    .selectFrom("action")
    .selectAll()
    .where("repoId", "=", repoId)
    .whereRef("userId", "=", "actUserId")
    .where("isDeleted", "=", false)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** Comments named by feed entries, with their issue's number and kind (for the API's `comment`). */
export async function feedComments(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("comment")
    .innerJoin("issue", "issue.id", "comment.issueId")
    .selectAll("comment")
    .select(["issue.index as issueIndex", "issue.isPull"])
    .where("comment.id", "in", [...ids])
    .execute();
}
