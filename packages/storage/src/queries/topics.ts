import type { Paged, PageRequest } from "@kiln/domain";
import type { ExpressionBuilder } from "kysely";
import type { Database, Db } from "../database.js";
import { paged } from "./paging.js";
import { type RepoViewer, repoVisibleTo } from "./repo-visibility.js";
import { escapeLike } from "./users.js";

/** A topic as `/topics/search` lists it: `repoCount` counts only repositories the viewer may see. */
export interface TopicRow {
  readonly id: number;
  readonly name: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly repoCount: number;
}

/**
 * Replaces a repository's topics with `names` (already validated, in order): the global topics
 * are created as needed, the repository's links and its `topics` column rewritten. Call inside
 * the transaction of the change.
 */
export async function setRepoTopics(trx: Db, repoId: number, names: readonly string[]): Promise<void> {
  await trx.deleteFrom("repoTopic").where("repoId", "=", repoId).execute();
  if (names.length > 0) {
    await trx
      .insertInto("topic")
      .values(names.map((name) => ({ name })))
      .onConflict((oc) => oc.column("name").doUpdateSet({ updatedAt: new Date() }))
      .execute();
    const topics = await trx.selectFrom("topic").select("id").where("name", "in", names).execute();
    await trx
      .insertInto("repoTopic")
      .values(topics.map((topic) => ({ repoId, topicId: topic.id })))
      .execute();
  }
  await trx
    .updateTable("repository")
    .set({ topics: JSON.stringify(names), updatedAt: new Date() })
    .where("id", "=", repoId)
    .execute();
}

/**
 * Topics whose name contains `keyword`, most used first, counting and showing only repositories
 * the viewer may see: a topic set only on private repositories stays invisible to others.
 */
export async function searchTopics(
  db: Db,
  keyword: string,
  viewer: RepoViewer,
  page: PageRequest,
): Promise<Paged<TopicRow>> {
  const base = db
    .selectFrom("topic")
    .innerJoin("repoTopic", "repoTopic.topicId", "topic.id")
    .innerJoin("repository", "repository.id", "repoTopic.repoId")
    .where(repoVisibleTo(viewer))
    .$if(keyword !== "", (qb) => qb.where("topic.name", "like", `%${escapeLike(keyword.toLowerCase())}%`));
  const rows = base
    .select(["topic.id", "topic.name", "topic.createdAt", "topic.updatedAt"])
    .select((eb) => eb.fn.countAll<number>().as("repoCount"))
    .groupBy("topic.id")
    .orderBy("repoCount", "desc")
    .orderBy("topic.name");
  const count = db
    .selectFrom(base.select("topic.id").distinct().as("visible"))
    .select((eb) => eb.fn.countAll().as("count"));
  const result = await paged(rows, count, page);
  return { ...result, items: result.items.map((row) => ({ ...row, repoCount: Number(row.repoCount) })) };
}

/** Whether a repository carries a topic (repositories search with `topic=true` matches exactly). */
export function repoHasTopic(name: string) {
  return (eb: ExpressionBuilder<Database, "repository">) =>
    eb.exists(
      eb
        .selectFrom("repoTopic")
        .innerJoin("topic", "topic.id", "repoTopic.topicId")
        .select("repoTopic.topicId")
        .whereRef("repoTopic.repoId", "=", "repository.id")
        .where("topic.name", "=", name),
    );
}

/** Whether a repository carries a topic whose name matches a LIKE pattern (keyword search). */
export function repoTopicLike(pattern: string) {
  return (eb: ExpressionBuilder<Database, "repository">) =>
    eb.exists(
      eb
        .selectFrom("repoTopic")
        .innerJoin("topic", "topic.id", "repoTopic.topicId")
        .select("repoTopic.topicId")
        .whereRef("repoTopic.repoId", "=", "repository.id")
        .where("topic.name", "like", pattern),
    );
}

/** A repository's topics, its row locked until the transaction ends (read, change, then set). */
export async function lockRepoTopics(trx: Db, repoId: number): Promise<string[]> {
  const row = await trx
    .selectFrom("repository")
    .select("topics")
    .where("id", "=", repoId)
    .forUpdate()
    .executeTakeFirst();
  return row?.topics ?? [];
}
