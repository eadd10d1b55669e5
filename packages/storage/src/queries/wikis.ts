import type { Db } from "../database.js";
import type { UsageSource } from "./usage-source.js";

/** The recorded size of a repository's wiki in bytes (0 when it has none). */
export async function wikiSize(db: Db, repoId: number): Promise<number> {
  const row = await db.selectFrom("repoWiki").select("size").where("repoId", "=", repoId).executeTakeFirst();
  return Number(row?.size ?? 0);
}

/**
 * Records the measured size of a repository's wiki and returns the size recorded before (0 for a
 * new wiki). Lock the repository row first, so that concurrent writers record one after the other.
 */
export async function setWikiSize(db: Db, repoId: number, size: number): Promise<number> {
  const before = await wikiSize(db, repoId);
  await db
    .insertInto("repoWiki")
    .values({ repoId, size })
    .onConflict((oc) => oc.column("repoId").doUpdateSet({ size }))
    .execute();
  return before;
}

/** Wikis: the recorded sizes of the owners' repositories' wikis (`size:wiki`). */
export const wikiUsage: UsageSource = async (db, ownerIds) => {
  const rows = await db
    .selectFrom("repoWiki")
    .innerJoin("repository", "repository.id", "repoWiki.repoId")
    .where("repository.ownerId", "in", ownerIds)
    .groupBy("repository.ownerId")
    .select((eb) => ["repository.ownerId", eb.fn.sum<number>("repoWiki.size").as("wiki")])
    .execute();
  return new Map(rows.map((r) => [r.ownerId, { wiki: Number(r.wiki) }]));
};

/** Whether a size is recorded for the repository's wiki. */
export async function wikiRecorded(db: Db, repoId: number): Promise<boolean> {
  const row = await db
    .selectFrom("repoWiki")
    .select("repoId")
    .where("repoId", "=", repoId)
    .executeTakeFirst();
  return row !== undefined;
}
