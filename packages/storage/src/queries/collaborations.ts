import type { CollaboratorMode, Paged, PageRequest, User } from "@kiln/domain";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";
import { USER_COLUMNS } from "./user-columns.js";

/** Adds a collaborator or changes their mode. */
export async function upsertCollaborator(
  db: Db,
  repoId: number,
  userId: number,
  mode: CollaboratorMode,
): Promise<void> {
  await db
    .insertInto("collaboration")
    .values({ repoId, userId, mode })
    .onConflict((oc) => oc.columns(["repoId", "userId"]).doUpdateSet({ mode }))
    .execute();
}

export async function removeCollaborator(db: Db, repoId: number, userId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("collaboration")
    .where("repoId", "=", repoId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** The collaborator's mode, or undefined when the user is not a collaborator. */
export async function findCollaboratorMode(
  db: Db,
  repoId: number,
  userId: number,
): Promise<CollaboratorMode | undefined> {
  const row = await db
    .selectFrom("collaboration")
    .select("mode")
    .where("repoId", "=", repoId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.mode;
}

/** One page of a repository's collaborators with their modes, by user id. */
export async function listCollaborators(
  db: Db,
  repoId: number,
  page: PageRequest,
): Promise<Paged<{ user: User; mode: CollaboratorMode }>> {
  const q = db
    .selectFrom("collaboration")
    .innerJoin("users", "users.id", "collaboration.userId")
    .where("collaboration.repoId", "=", repoId);
  const found = await pageOf(
    q,
    (q) =>
      q.select([...USER_COLUMNS.map((c) => `users.${c}` as const), "collaboration.mode"]).orderBy("users.id"),
    page,
  );
  return {
    items: found.items.map(({ mode, ...user }) => ({ user: user as User, mode })),
    total: found.total,
  };
}
