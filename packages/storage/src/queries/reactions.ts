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
