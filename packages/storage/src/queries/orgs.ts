import type { Paged, PageRequest, User } from "@kiln/domain";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";
import { accountVisibleTo, type RepoViewer } from "./repo-visibility.js";
import { USER_COLUMNS } from "./user-columns.js";

/** Makes a user a member of an organization (no-op when already one). */
export async function addOrgMember(db: Db, orgId: number, userId: number, isPublic = false): Promise<void> {
  await db
    .insertInto("orgUser")
    .values({ orgId, userId, isPublic })
    .onConflict((oc) => oc.columns(["orgId", "userId"]).doNothing())
    .execute();
}

/** Removes a member from an organization and from all of its teams. */
export async function removeOrgMember(db: Db, orgId: number, userId: number): Promise<boolean> {
  await db.deleteFrom("teamUser").where("orgId", "=", orgId).where("userId", "=", userId).execute();
  const r = await db
    .deleteFrom("orgUser")
    .where("orgId", "=", orgId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** The membership record, or undefined when the user is not a member. */
export async function findOrgMembership(
  db: Db,
  orgId: number,
  userId: number,
): Promise<{ isPublic: boolean } | undefined> {
  return db
    .selectFrom("orgUser")
    .select("isPublic")
    .where("orgId", "=", orgId)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

/** Shows or hides a membership to non-members. */
export async function setMembershipPublic(
  db: Db,
  orgId: number,
  userId: number,
  isPublic: boolean,
): Promise<void> {
  await db
    .updateTable("orgUser")
    .set({ isPublic })
    .where("orgId", "=", orgId)
    .where("userId", "=", userId)
    .execute();
}

/** One page of an organization's members (only public memberships when `publicOnly`), by id. */
export async function listOrgMembers(
  db: Db,
  orgId: number,
  opts: { publicOnly: boolean },
  page: PageRequest,
): Promise<Paged<User>> {
  let q = db
    .selectFrom("orgUser")
    .innerJoin("users", "users.id", "orgUser.userId")
    .where("orgUser.orgId", "=", orgId);
  if (opts.publicOnly) q = q.where("orgUser.isPublic", "=", true);
  return pageOf(
    q,
    (rows) => rows.select(USER_COLUMNS.map((c) => `users.${c}` as const)).orderBy("users.id"),
    page,
  );
}

/** Filters for listing the organizations a user belongs to. */
export interface UserOrgFilter {
  /** Only memberships the user made public. */
  readonly publicMembershipsOnly?: boolean;
}

/** One page of the organizations `userId` is a member of that `viewer` may see, by id. */
export async function listUserOrgs(
  db: Db,
  userId: number,
  viewer: RepoViewer,
  filter: UserOrgFilter,
  page: PageRequest,
): Promise<Paged<User>> {
  let q = db
    .selectFrom("orgUser")
    .innerJoin("users", "users.id", "orgUser.orgId")
    .where("orgUser.userId", "=", userId)
    .where(accountVisibleTo(viewer, "users"));
  if (filter.publicMembershipsOnly) q = q.where("orgUser.isPublic", "=", true);
  return pageOf(
    q,
    (rows) => rows.select(USER_COLUMNS.map((c) => `users.${c}` as const)).orderBy("users.id"),
    page,
  );
}

/** One page of all organizations `viewer` may see, by id (the access module's fragment). */
export async function listOrgs(db: Db, viewer: RepoViewer, page: PageRequest): Promise<Paged<User>> {
  const q = db
    .selectFrom("users")
    .where("type", "=", "organization")
    .where(accountVisibleTo(viewer, "users"));
  return pageOf(q, (rows) => rows.select(USER_COLUMNS).orderBy("id"), page);
}

/** The organizations in which `userId` is the only member of the Owners team. */
export async function soleOwnedOrgs(db: Db, userId: number): Promise<User[]> {
  return db
    .selectFrom("teamUser")
    .innerJoin("team", "team.id", "teamUser.teamId")
    .innerJoin("users", "users.id", "team.orgId")
    .where("teamUser.userId", "=", userId)
    .where("team.accessMode", "=", "owner")
    .where((eb) =>
      eb(
        eb
          .selectFrom("teamUser as o")
          .select((e) => e.fn.countAll<number>().as("n"))
          .whereRef("o.teamId", "=", "team.id"),
        "=",
        1,
      ),
    )
    .select(USER_COLUMNS.map((c) => `users.${c}` as const))
    .execute();
}
