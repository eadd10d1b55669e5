import type { Paged, PageRequest, Repository, User } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { WatchMode } from "../database-social.js";
import { pageOf } from "./paging.js";
import { accountVisibleTo, type RepoViewer, repoVisibleTo } from "./repo-visibility.js";
import { REPO_COLUMNS } from "./repositories.js";
import { USER_COLUMNS } from "./user-columns.js";

/**
 * Watching, stars and following (Forgejo's models/repo/watch.go and star.go, models/user/follow.go).
 * Every change recounts the counters it moves in the same transaction; every list filters the
 * accounts and repositories it shows with the access fragments.
 */

const WATCHING = [WatchMode.normal, WatchMode.auto];
const USERS = USER_COLUMNS.map((c) => `users.${c}` as const);

/** The user's watch of a repository, if any (a "don't watch" row included). */
export async function findWatch(
  db: Db,
  userId: number,
  repoId: number,
): Promise<{ mode: number; createdAt: Date } | undefined> {
  return db
    .selectFrom("watch")
    .select(["mode", "createdAt"])
    .where("userId", "=", userId)
    .where("repoId", "=", repoId)
    .executeTakeFirst();
}

/**
 * Sets the user's watch mode on a repository (null removes the row, Forgejo's WatchModeNone) and
 * recounts the repository's watchers.
 */
export async function setWatchMode(
  db: Db,
  userId: number,
  repoId: number,
  mode: WatchMode | null,
  at: Date,
): Promise<void> {
  if (mode === null) {
    await db.deleteFrom("watch").where("userId", "=", userId).where("repoId", "=", repoId).execute();
  } else {
    await db
      .insertInto("watch")
      .values({ userId, repoId, mode, createdAt: at, updatedAt: at })
      .onConflict((oc) => oc.columns(["userId", "repoId"]).doUpdateSet({ mode, updatedAt: at }))
      .execute();
  }
  await recountWatches(db, repoId);
}

/**
 * Makes each of these users watch the repository (mode normal) unless they already have a watch
 * row of any mode (a "don't watch" is kept), then recounts; Forgejo's WatchRepo on creation.
 */
export async function watchUnlessSet(
  db: Db,
  userIds: readonly number[],
  repoId: number,
  at: Date,
): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  await db
    .insertInto("watch")
    .values(ids.map((userId) => ({ userId, repoId, mode: WatchMode.normal, createdAt: at, updatedAt: at })))
    .onConflict((oc) => oc.columns(["userId", "repoId"]).doNothing())
    .execute();
  await recountWatches(db, repoId);
}

/** The members of the organization's teams that include every repository (the owners' team among them). */
export async function allRepositoryTeamMembers(db: Db, orgId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("teamUser")
    .innerJoin("team", "team.id", "teamUser.teamId")
    .select("teamUser.userId")
    .distinct()
    .where("team.orgId", "=", orgId)
    .where("team.includesAllRepositories", "=", true)
    .execute();
  return rows.map((r) => r.userId);
}

async function recountWatches(db: Db, repoId: number): Promise<void> {
  await sql`update repository set num_watches = (select count(*) from watch
    where watch.repo_id = ${repoId} and watch.mode in (1, 3)) where id = ${repoId}`.execute(db);
}

/** Whether the user starred the repository. */
export async function isStarred(db: Db, userId: number, repoId: number): Promise<boolean> {
  const row = await db
    .selectFrom("star")
    .select("id")
    .where("userId", "=", userId)
    .where("repoId", "=", repoId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Stars or unstars a repository, recounting the repository's and the user's stars. */
export async function setStar(db: Db, userId: number, repoId: number, on: boolean, at: Date): Promise<void> {
  if (on) {
    await db
      .insertInto("star")
      .values({ userId, repoId, createdAt: at })
      .onConflict((oc) => oc.columns(["userId", "repoId"]).doNothing())
      .execute();
  } else {
    await db.deleteFrom("star").where("userId", "=", userId).where("repoId", "=", repoId).execute();
  }
  await sql`update repository set num_stars = (select count(*) from star where star.repo_id = ${repoId})
    where id = ${repoId}`.execute(db);
  await sql`update users set num_stars = (select count(*) from star where star.user_id = ${userId})
    where id = ${userId}`.execute(db);
}

/** A mark a user puts on a repository: a star, or a watch (Forgejo keeps them in twin tables). */
export type RepoMark = "star" | "watch";

/** The marks of one kind, as the table `mark`; a watch counts while its mode is watching. */
function marks(db: Db, kind: RepoMark) {
  const stars = db.selectFrom("star as mark");
  if (kind === "star") return stars;
  // A watch row has every column of a star row that the lists read (plus its mode).
  return db.selectFrom("watch as mark").where("mark.mode", "in", WATCHING) as unknown as typeof stars;
}

/** One page of the users who starred or watch a repository whom `viewer` may see. */
export async function listMarkers(
  db: Db,
  kind: RepoMark,
  repoId: number,
  viewer: RepoViewer,
  page: PageRequest,
): Promise<Paged<User>> {
  const q = marks(db, kind)
    .innerJoin("users", "users.id", "mark.userId")
    .where("mark.repoId", "=", repoId)
    .where(accountVisibleTo(viewer, "users"));
  return pageOf(q, (rows) => rows.select(USERS).orderBy("mark.id"), page);
}

/**
 * One page of the repositories a user starred or watches that `viewer` may see; another user's
 * private repositories are left out whoever asks, as Forgejo's GetStarredRepos and GetWatchedRepos.
 */
export async function listMarkedRepos(
  db: Db,
  kind: RepoMark,
  userId: number,
  viewer: RepoViewer,
  page: PageRequest,
): Promise<Paged<Repository>> {
  let q = marks(db, kind)
    .innerJoin("repository", "repository.id", "mark.repoId")
    .where("mark.userId", "=", userId)
    .where(repoVisibleTo(viewer));
  if (viewer?.id !== userId) q = q.where("repository.isPrivate", "=", false);
  return pageOf(q, (rows) => rows.select(REPO_COLUMNS).orderBy("mark.id", "desc"), page);
}

/** Whether `userId` follows `followId`. */
export async function isFollowing(db: Db, userId: number, followId: number): Promise<boolean> {
  const row = await db
    .selectFrom("follow")
    .select("id")
    .where("userId", "=", userId)
    .where("followId", "=", followId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Follows or unfollows, recounting the follower's following and the followed one's followers. */
export async function setFollow(
  db: Db,
  userId: number,
  followId: number,
  on: boolean,
  at: Date,
): Promise<void> {
  if (on) {
    await db
      .insertInto("follow")
      .values({ userId, followId, createdAt: at })
      .onConflict((oc) => oc.columns(["userId", "followId"]).doNothing())
      .execute();
  } else {
    await db.deleteFrom("follow").where("userId", "=", userId).where("followId", "=", followId).execute();
  }
  await sql`update users set num_following = (select count(*) from follow where follow.user_id = ${userId})
    where id = ${userId}`.execute(db);
  await sql`update users set num_followers = (select count(*) from follow where follow.follow_id = ${followId})
    where id = ${followId}`.execute(db);
}

/** One page of the followers of a user (`direction` followers) or of whom they follow, visible to `viewer`. */
export async function listFollows(
  db: Db,
  userId: number,
  direction: "followers" | "following",
  viewer: RepoViewer,
  page: PageRequest,
): Promise<Paged<User>> {
  const [mine, theirs] =
    direction === "followers"
      ? (["follow.followId", "follow.userId"] as const)
      : (["follow.userId", "follow.followId"] as const);
  const q = db
    .selectFrom("follow")
    .innerJoin("users", "users.id", theirs)
    .where(mine, "=", userId)
    .where(accountVisibleTo(viewer, "users"));
  return pageOf(q, (rows) => rows.select(USERS).orderBy("follow.id", "desc"), page);
}
