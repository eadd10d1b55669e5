import { sql } from "kysely";
import type { Db } from "../database.js";

/**
 * Before a repository goes (its stars and watches go with it by cascade): the users who starred
 * it count one star less, as Forgejo's ClearRepoStars. Run in the deletion's transaction.
 */
export async function releaseRepositoryCounters(db: Db, repoId: number): Promise<void> {
  await sql`update users set num_stars = greatest(num_stars - 1, 0)
    where id in (select user_id from star where repo_id = ${repoId})`.execute(db);
}

/**
 * Before an account goes (its follows, stars and watches go with it by cascade): those it
 * followed count one follower less, those who followed it one followed account less, and the
 * repositories it starred or watched one star or watcher less, as Forgejo's DeleteUser. Run in
 * the deletion's transaction.
 */
export async function releaseUserCounters(db: Db, userId: number): Promise<void> {
  await sql`update users set num_followers = greatest(num_followers - 1, 0)
    where id in (select follow_id from follow where user_id = ${userId})`.execute(db);
  await sql`update users set num_following = greatest(num_following - 1, 0)
    where id in (select user_id from follow where follow_id = ${userId})`.execute(db);
  await sql`update repository set num_stars = greatest(num_stars - 1, 0)
    where id in (select repo_id from star where user_id = ${userId})`.execute(db);
  await sql`update repository set num_watches = greatest(num_watches - 1, 0)
    where id in (select repo_id from watch where user_id = ${userId} and mode in (1, 3))`.execute(db);
}
