import type { Db, QuotaUsageRow } from "../database.js";

/** The counters of the quota ledger (bytes per leaf subject). */
export type UsageCounters = Omit<QuotaUsageRow, "ownerId">;

/** All counters at zero. */
export const NO_USAGE: UsageCounters = {
  reposPublic: 0,
  reposPrivate: 0,
  lfs: 0,
  issueAttachments: 0,
  releaseAttachments: 0,
  artifacts: 0,
  packages: 0,
  wiki: 0,
};

/**
 * Adds `delta` to an owner's counters atomically (INSERT … ON CONFLICT DO UPDATE SET x = x + …),
 * so concurrent changes never lose an update. Call it in the transaction that changes what it counts.
 */
export async function addUsage(db: Db, ownerId: number, delta: Partial<UsageCounters>): Promise<void> {
  const entries = Object.entries(delta).filter(([, v]) => v !== 0 && v !== undefined) as [
    keyof UsageCounters,
    number,
  ][];
  if (entries.length === 0) return;
  await db
    .insertInto("quotaUsage")
    .values({ ownerId, ...Object.fromEntries(entries) })
    .onConflict((oc) =>
      oc
        .column("ownerId")
        .doUpdateSet((eb) =>
          Object.fromEntries(entries.map(([k, v]) => [k, eb(eb.ref(`quotaUsage.${k}`), "+", v)])),
        ),
    )
    .execute();
}

/** An owner's counters (zeros when nothing was ever counted). */
export async function getUsage(db: Db, ownerId: number): Promise<UsageCounters> {
  const row = await db.selectFrom("quotaUsage").selectAll().where("ownerId", "=", ownerId).executeTakeFirst();
  if (!row) return { ...NO_USAGE };
  const { ownerId: _, ...counters } = row;
  return counters;
}

/** Overwrites an owner's counters (used by `kiln doctor quota --fix`). */
export async function setUsage(db: Db, ownerId: number, counters: UsageCounters): Promise<void> {
  await db
    .insertInto("quotaUsage")
    .values({ ownerId, ...counters })
    .onConflict((oc) => oc.column("ownerId").doUpdateSet(counters))
    .execute();
}

/** The counters of several owners at once (owners never counted are absent). */
export async function getUsages(db: Db, ownerIds: readonly number[]): Promise<Map<number, UsageCounters>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await db.selectFrom("quotaUsage").selectAll().where("ownerId", "in", ownerIds).execute();
  return new Map(rows.map(({ ownerId, ...counters }) => [ownerId, counters]));
}

/**
 * Locks an owner's counters for the rest of the transaction, creating the row when missing, so
 * that no concurrent `addUsage` can land between reading the data it counts and `setUsage`.
 */
export async function lockUsage(db: Db, ownerId: number): Promise<UsageCounters> {
  await db
    .insertInto("quotaUsage")
    .values({ ownerId })
    .onConflict((oc) => oc.column("ownerId").doNothing())
    .execute();
  const { ownerId: _, ...counters } = await db
    .selectFrom("quotaUsage")
    .selectAll()
    .where("ownerId", "=", ownerId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return counters;
}
