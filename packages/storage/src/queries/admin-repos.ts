import type { Db } from "../database.js";

/** Up to `limit` repository ids above `after`, in id order: a walk over every repository in batches. */
export async function repositoryIdsAfter(db: Db, after: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("repository")
    .select("id")
    .where("id", ">", after)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** How many repositories there are (the total a walk with {@link repositoryIdsAfter} reports progress against). */
export async function countRepositories(db: Db): Promise<number> {
  const row = await db
    .selectFrom("repository")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Which of these `owner/name` pairs (lower case) have a repository row, as `owner/name` keys. */
export async function existingRepositoryKeys(
  db: Db,
  pairs: readonly { readonly owner: string; readonly name: string }[],
): Promise<ReadonlySet<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .selectFrom("repository")
    .innerJoin("users", "users.id", "repository.ownerId")
    .select(["users.lowerName as owner", "repository.lowerName as name"])
    .where((eb) =>
      eb.or(
        pairs.map((p) =>
          eb.and([
            eb("users.lowerName", "=", p.owner.toLowerCase()),
            eb("repository.lowerName", "=", p.name.toLowerCase()),
          ]),
        ),
      ),
    )
    .execute();
  return new Set(rows.map((r) => `${r.owner}/${r.name}`));
}

/** Renames an account and the owner name its repositories carry (run in a transaction). */
export async function renameAccount(db: Db, userId: number, newName: string): Promise<void> {
  await db
    .updateTable("users")
    .set({ name: newName, lowerName: newName.toLowerCase(), updatedAt: new Date() })
    .where("id", "=", userId)
    .execute();
  await db.updateTable("repository").set({ ownerName: newName }).where("ownerId", "=", userId).execute();
}
