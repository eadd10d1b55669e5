import type { QuotaRuleRecord } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";

/** A stored quota rule with its row id. */
export interface StoredQuotaRule extends QuotaRuleRecord {
  readonly id: number;
}

const RULE_COLUMNS = ["quotaRule.id", "quotaRule.name", "quotaRule.limit", "quotaRule.subjects"] as const;

/** Creates a rule. A taken name violates quota_rule_name_key. */
export async function insertRule(db: Db, rule: QuotaRuleRecord): Promise<StoredQuotaRule> {
  return db
    .insertInto("quotaRule")
    .values({ name: rule.name, limit: rule.limit, subjects: JSON.stringify(rule.subjects) })
    .returning(["id", "name", "limit", "subjects"])
    .executeTakeFirstOrThrow();
}

/** The rule with exactly this name. */
export async function findRuleByName(db: Db, name: string): Promise<StoredQuotaRule | undefined> {
  return db
    .selectFrom("quotaRule")
    .select(RULE_COLUMNS)
    .where("quotaRule.name", "=", name)
    .executeTakeFirst();
}

/** Every rule, by name. */
export async function listRules(db: Db): Promise<StoredQuotaRule[]> {
  return db
    .selectFrom("quotaRule")
    .select(RULE_COLUMNS)
    .orderBy(sql`${sql.ref("quotaRule.name")} collate "C"`)
    .execute();
}

/** Changes a rule's limit and/or subjects and returns it. */
export async function updateRule(
  db: Db,
  id: number,
  patch: { readonly limit?: number; readonly subjects?: readonly string[] },
): Promise<StoredQuotaRule | undefined> {
  const set = {
    ...(patch.limit !== undefined ? { limit: patch.limit } : {}),
    ...(patch.subjects !== undefined ? { subjects: JSON.stringify(patch.subjects) } : {}),
  };
  if (Object.keys(set).length === 0) {
    return db.selectFrom("quotaRule").select(RULE_COLUMNS).where("quotaRule.id", "=", id).executeTakeFirst();
  }
  return db
    .updateTable("quotaRule")
    .set(set)
    .where("id", "=", id)
    .returning(["id", "name", "limit", "subjects"])
    .executeTakeFirst();
}

/** Deletes a rule; it leaves every group that held it. */
export async function deleteRule(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom("quotaRule").where("id", "=", id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}
