import type { Paged, PageRequest } from "@kiln/domain";
import type { Db } from "../database.js";
import type { ReactionRow } from "../database-issues.js";
import { paged } from "./paging.js";

/** The reactions to an issue (`commentId` 0) or one of its comments, of the allowed types, oldest first. */
export async function listReactions(
  db: Db,
  issueId: number,
  commentId: number,
  types: readonly string[],
  page: PageRequest | undefined,
): Promise<Paged<ReactionRow>> {
  const base = db
    .selectFrom("reaction")
    .where("issueId", "=", issueId)
    .where("commentId", "=", commentId)
    .where("type", "in", types.length > 0 ? [...types] : [""]);
  const rows = base.selectAll().orderBy("createdAt").orderBy("id");
  const count = base.select((eb) => eb.fn.countAll().as("count"));
  if (!page) {
    const [items, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
    return { items, total: Number(total.count) };
  }
  return paged(rows, count, page);
}

/** Adds a reaction unless the user already reacted so; answers it and whether it is new. */
export async function addReaction(
  db: Db,
  reaction: { issueId: number; commentId: number; userId: number; type: string },
): Promise<{ reaction: ReactionRow; created: boolean }> {
  const inserted = await db
    .insertInto("reaction")
    .values(reaction)
    .onConflict((oc) => oc.columns(["type", "issueId", "commentId", "userId"]).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { reaction: inserted, created: true };
  const existing = await db
    .selectFrom("reaction")
    .selectAll()
    .where("issueId", "=", reaction.issueId)
    .where("commentId", "=", reaction.commentId)
    .where("userId", "=", reaction.userId)
    .where("type", "=", reaction.type)
    .executeTakeFirstOrThrow();
  return { reaction: existing, created: false };
}

export async function removeReaction(
  db: Db,
  reaction: { issueId: number; commentId: number; userId: number; type: string },
): Promise<void> {
  await db
    .deleteFrom("reaction")
    .where("issueId", "=", reaction.issueId)
    .where("commentId", "=", reaction.commentId)
    .where("userId", "=", reaction.userId)
    .where("type", "=", reaction.type)
    .execute();
}

/** How many reactions of each allowed type an issue and each of its comments (`commentId` 0 is the issue) has, in one query. */
export async function reactionCounts(
  db: Db,
  issueId: number,
  types: readonly string[],
): Promise<{ commentId: number; type: string; count: number }[]> {
  const rows = await db
    .selectFrom("reaction")
    .select(["commentId", "type", (eb) => eb.fn.countAll().as("count")])
    .where("issueId", "=", issueId)
    .where("type", "in", types.length > 0 ? [...types] : [""])
    .groupBy(["commentId", "type"])
    .orderBy("commentId")
    .orderBy((eb) => eb.fn.min("id"))
    .execute();
  return rows.map((row) => ({ commentId: row.commentId, type: row.type, count: Number(row.count) }));
}
