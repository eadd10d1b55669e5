import type { Db } from "../database.js";
import { artifactUsage } from "./artifacts.js";
import { attachmentUsage } from "./attachments.js";
import { packageUsage } from "./packages.js";
import { NO_USAGE, type UsageCounters } from "./quota-usage.js";
import type { UsageSource } from "./usage-source.js";
import { wikiUsage } from "./wikis.js";

export type { UsageSource } from "./usage-source.js";

/** Repositories: git size by visibility, and LFS, summed per owner from the stored sizes. */
export const repositoryUsage: UsageSource = async (db, ownerIds) => {
  const rows = await db
    .selectFrom("repository")
    .where("ownerId", "in", ownerIds)
    .groupBy("ownerId")
    .select((eb) => [
      "ownerId",
      eb.fn
        .coalesce(eb.fn.sum<number>("gitSize").filterWhere("isPrivate", "=", false), eb.lit(0))
        .as("reposPublic"),
      eb.fn
        .coalesce(eb.fn.sum<number>("gitSize").filterWhere("isPrivate", "=", true), eb.lit(0))
        .as("reposPrivate"),
      eb.fn.coalesce(eb.fn.sum<number>("lfsSize"), eb.lit(0)).as("lfs"),
    ])
    .execute();
  return new Map(
    rows.map((r) => [
      r.ownerId,
      { reposPublic: Number(r.reposPublic), reposPrivate: Number(r.reposPrivate), lfs: Number(r.lfs) },
    ]),
  );
};

/**
 * Every source table the ledger counts: the one place `kiln doctor quota` recounts from.
 * Issue and release attachments, packages, Actions artifacts and wikis each add their `UsageSource` here.
 */
export const USAGE_SOURCES: readonly UsageSource[] = [
  repositoryUsage,
  attachmentUsage,
  packageUsage,
  artifactUsage,
  wikiUsage,
];

/** The counters of the given owners recomputed from the source tables (zeros for owners holding nothing). */
export async function recountUsage(
  db: Db,
  ownerIds: readonly number[],
  sources: readonly UsageSource[] = USAGE_SOURCES,
): Promise<Map<number, UsageCounters>> {
  const out = new Map<number, UsageCounters>(ownerIds.map((id) => [id, { ...NO_USAGE }]));
  if (ownerIds.length === 0) return out;
  for (const source of sources) {
    for (const [ownerId, partial] of await source(db, ownerIds)) {
      const counters = out.get(ownerId);
      if (!counters) continue;
      for (const [key, value] of Object.entries(partial) as [keyof UsageCounters, number][])
        counters[key] += value;
    }
  }
  return out;
}

/** Number of accounts (users and organizations): the owners a recount walks through. */
export async function countOwners(db: Db): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The next `limit` accounts after id `afterId`, by id (keyset pagination over every owner). */
export async function listOwnersAfter(
  db: Db,
  afterId: number,
  limit: number,
): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom("users")
    .select(["id", "name"])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
}
