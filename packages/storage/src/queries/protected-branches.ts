import {
  DEFAULT_PROTECTED_BRANCH_SETTINGS,
  type ProtectedBranch,
  type ProtectedBranchSettings,
} from "@kiln/domain";
import { sql } from "kysely";
import type { Db, ProtectedBranchRow } from "../database.js";
import { cachedRead } from "../read-cache.js";

/** Stored settings over the defaults, so rules written before a setting existed read as Forgejo's default. */
function toProtectedBranch(row: ProtectedBranchRow): ProtectedBranch {
  const stored = (row.settings ?? {}) as Partial<ProtectedBranchSettings>;
  return {
    id: row.id,
    repoId: row.repoId,
    ruleName: row.ruleName,
    priority: row.priority,
    settings: { ...DEFAULT_PROTECTED_BRANCH_SETTINGS, ...stored },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The branch protection rules of a repository, by priority then id (the order Forgejo lists them in). */
export async function listProtectedBranches(db: Db, repoId: number): Promise<ProtectedBranch[]> {
  const rows = await db
    .selectFrom("protectedBranch")
    .selectAll()
    .where("repoId", "=", repoId)
    .orderBy("priority")
    .orderBy("id")
    .execute();
  return rows.map(toProtectedBranch);
}

/**
 * {@link listProtectedBranches} through the read cache: for showing rules (branch listings), never
 * for enforcing them, since another process's change may go unseen for the cache's TTL.
 */
export function listProtectedBranchesForDisplay(db: Db, repoId: number): Promise<readonly ProtectedBranch[]> {
  return cachedRead(db, `protected-branches:${repoId}`, () => listProtectedBranches(db, repoId));
}

/** The rule with exactly this name, or undefined. */
export async function findProtectedBranch(
  db: Db,
  repoId: number,
  ruleName: string,
): Promise<ProtectedBranch | undefined> {
  const row = await db
    .selectFrom("protectedBranch")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("ruleName", "=", ruleName)
    .executeTakeFirst();
  return row ? toProtectedBranch(row) : undefined;
}

/**
 * Adds a rule after the repository's existing ones (priority = highest + 1). A name the
 * repository already uses violates protected_branch_repo_rule_key.
 */
export async function insertProtectedBranch(
  db: Db,
  repoId: number,
  ruleName: string,
  settings: ProtectedBranchSettings,
): Promise<ProtectedBranch> {
  const row = await db
    .insertInto("protectedBranch")
    .values({
      repoId,
      ruleName,
      settings: JSON.stringify(settings),
      priority: sql<number>`(select coalesce(max(priority), 0) + 1 from protected_branch where repo_id = ${repoId})`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toProtectedBranch(row);
}

/** Replaces a rule's settings; undefined when the rule no longer exists. */
export async function updateProtectedBranch(
  db: Db,
  id: number,
  settings: ProtectedBranchSettings,
): Promise<ProtectedBranch | undefined> {
  const row = await db
    .updateTable("protectedBranch")
    .set({ settings: JSON.stringify(settings), updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row ? toProtectedBranch(row) : undefined;
}

/** Deletes a rule by name; false when there was none. */
export async function deleteProtectedBranch(db: Db, repoId: number, ruleName: string): Promise<boolean> {
  const result = await db
    .deleteFrom("protectedBranch")
    .where("repoId", "=", repoId)
    .where("ruleName", "=", ruleName)
    .executeTakeFirst();
  return (result.numDeletedRows ?? 0n) > 0n;
}
