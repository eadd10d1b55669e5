import type { QuotaGroupRecord, User } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { USER_COLUMNS } from "./user-columns.js";

/** A stored quota group without its rules. */
export interface StoredQuotaGroup {
  readonly id: number;
  readonly name: string;
}

/** Creates a group. A taken name violates quota_group_name_key. */
export async function insertGroup(db: Db, name: string): Promise<StoredQuotaGroup> {
  return db.insertInto("quotaGroup").values({ name }).returning(["id", "name"]).executeTakeFirstOrThrow();
}

/** The group with exactly this name. */
export async function findGroupByName(db: Db, name: string): Promise<StoredQuotaGroup | undefined> {
  return db.selectFrom("quotaGroup").select(["id", "name"]).where("name", "=", name).executeTakeFirst();
}

/** Deletes a group with its rule and owner mappings (the rules themselves stay). */
export async function deleteGroup(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom("quotaGroup").where("id", "=", id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Attaches a rule to a group; false when it already was. */
export async function addRuleToGroup(db: Db, groupId: number, ruleId: number): Promise<boolean> {
  const r = await db
    .insertInto("quotaGroupRule")
    .values({ groupId, ruleId })
    .onConflict((oc) => oc.columns(["groupId", "ruleId"]).doNothing())
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Detaches a rule from a group; false when it was not attached. */
export async function removeRuleFromGroup(db: Db, groupId: number, ruleId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("quotaGroupRule")
    .where("groupId", "=", groupId)
    .where("ruleId", "=", ruleId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Assigns a group to a user or organization; false when it already was. */
export async function addOwnerToGroup(db: Db, groupId: number, ownerId: number): Promise<boolean> {
  const r = await db
    .insertInto("quotaGroupOwner")
    .values({ groupId, ownerId })
    .onConflict((oc) => oc.columns(["groupId", "ownerId"]).doNothing())
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Unassigns a group from an owner; false when it was not assigned. */
export async function removeOwnerFromGroup(db: Db, groupId: number, ownerId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("quotaGroupOwner")
    .where("groupId", "=", groupId)
    .where("ownerId", "=", ownerId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Replaces the set of groups assigned to an owner. */
export async function setOwnerGroups(db: Db, ownerId: number, groupIds: readonly number[]): Promise<void> {
  await db.deleteFrom("quotaGroupOwner").where("ownerId", "=", ownerId).execute();
  if (groupIds.length === 0) return;
  await db
    .insertInto("quotaGroupOwner")
    .values([...new Set(groupIds)].map((groupId) => ({ groupId, ownerId })))
    .execute();
}

/** The users and organizations a group is assigned to, by id. */
export async function ownersOfGroup(db: Db, groupId: number): Promise<User[]> {
  return db
    .selectFrom("quotaGroupOwner")
    .innerJoin("users", "users.id", "quotaGroupOwner.ownerId")
    .where("quotaGroupOwner.groupId", "=", groupId)
    .select(USER_COLUMNS.map((c) => `users.${c}` as const))
    .orderBy("users.id")
    .execute();
}

/** Which groups to load with their rules. */
export type GroupSelection =
  | { readonly all: true }
  | { readonly ids: readonly number[] }
  | { readonly names: readonly string[] }
  | { readonly ownerId: number };

/**
 * Groups with their rules in one query: groups by name, each group's rules in the order they
 * were added. This is what a quota check reads (besides the owner's one usage row).
 */
export async function loadGroups(
  db: Db,
  which: GroupSelection,
): Promise<(QuotaGroupRecord & { id: number })[]> {
  let q = db
    .selectFrom("quotaGroup")
    .leftJoin("quotaGroupRule", "quotaGroupRule.groupId", "quotaGroup.id")
    .leftJoin("quotaRule", "quotaRule.id", "quotaGroupRule.ruleId")
    .select([
      "quotaGroup.id as groupId",
      "quotaGroup.name as groupName",
      "quotaRule.name as ruleName",
      "quotaRule.limit as limit",
      "quotaRule.subjects as subjects",
    ]);
  if ("ids" in which) {
    if (which.ids.length === 0) return [];
    q = q.where("quotaGroup.id", "in", which.ids);
  } else if ("names" in which) {
    if (which.names.length === 0) return [];
    q = q.where("quotaGroup.name", "in", which.names);
  } else if ("ownerId" in which) {
    q = q.where((eb) =>
      eb(
        "quotaGroup.id",
        "in",
        eb.selectFrom("quotaGroupOwner").select("groupId").where("ownerId", "=", which.ownerId),
      ),
    );
  }
  // Byte order (collate "C"), so both databases list groups alike whatever their locale.
  const rows = await q
    .orderBy(sql`${sql.ref("quotaGroup.name")} collate "C"`)
    .orderBy("quotaGroupRule.id")
    .execute();
  const groups = new Map<number, { id: number; name: string; rules: QuotaGroupRecord["rules"][number][] }>();
  for (const row of rows) {
    let group = groups.get(row.groupId);
    if (!group) {
      group = { id: row.groupId, name: row.groupName, rules: [] };
      groups.set(row.groupId, group);
    }
    if (row.ruleName !== null && row.limit !== null && row.subjects !== null)
      group.rules.push({ name: row.ruleName, limit: row.limit, subjects: row.subjects });
  }
  return [...groups.values()];
}
