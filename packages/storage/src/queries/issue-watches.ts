import type { Paged, PageRequest, User } from "@kiln/domain";
import type { Db } from "../database.js";
import { paged } from "./paging.js";
import { USER_COLUMNS } from "./user-columns.js";

/** The user's explicit choice for an issue: subscribed (true), unsubscribed (false), or none. */
export async function findWatch(db: Db, issueId: number, userId: number): Promise<boolean | undefined> {
  const row = await db
    .selectFrom("issueWatch")
    .select("isWatching")
    .where("issueId", "=", issueId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.isWatching;
}

export async function setWatch(db: Db, issueId: number, userId: number, watching: boolean): Promise<void> {
  await db
    .insertInto("issueWatch")
    .values({ issueId, userId, isWatching: watching })
    .onConflict((oc) =>
      oc.columns(["issueId", "userId"]).doUpdateSet({ isWatching: watching, updatedAt: new Date() }),
    )
    .execute();
}

/** Whether the user took part in the issue: posted it or commented on it. */
export async function isParticipant(db: Db, issueId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("issue")
    .select("id")
    .where("id", "=", issueId)
    .where((eb) =>
      eb.or([
        eb("posterId", "=", userId),
        eb.exists(
          eb
            .selectFrom("comment")
            .select("comment.id")
            .whereRef("comment.issueId", "=", "issue.id")
            .where("comment.posterId", "=", userId)
            .where("comment.type", "in", [0, 21, 22]),
        ),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The users who explicitly subscribed to an issue (active accounts); a page, or all when `page` is undefined. */
export async function listWatchers(
  db: Db,
  issueId: number,
  page: PageRequest | undefined,
): Promise<Paged<User>> {
  const base = db
    .selectFrom("issueWatch")
    .innerJoin("users", "users.id", "issueWatch.userId")
    .where("issueWatch.issueId", "=", issueId)
    .where("issueWatch.isWatching", "=", true)
    .where("users.isActive", "=", true)
    .where("users.prohibitLogin", "=", false);
  const rows = base.select(USER_COLUMNS.map((c) => `users.${c}` as const)).orderBy("issueWatch.id");
  const count = base.select((eb) => eb.fn.countAll().as("count"));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items: items as unknown as User[], total: Number(total.count) };
  }
  const result = await paged(rows, count, page);
  return { items: result.items as unknown as User[], total: result.total };
}
