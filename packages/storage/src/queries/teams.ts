import type { AccessMode, Paged, PageRequest, RepoUnit, Team, User } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";
import { accountVisibleTo, type RepoViewer } from "./repo-visibility.js";
import { USER_COLUMNS } from "./user-columns.js";
import { escapeLike } from "./users.js";

const TEAM_COLUMNS = [
  "team.id",
  "team.orgId",
  "team.name",
  "team.lowerName",
  "team.description",
  "team.accessMode",
  "team.units",
  "team.includesAllRepositories",
  "team.canCreateOrgRepo",
] as const;

/** What creating or editing a team sets. */
export interface TeamValues {
  readonly name: string;
  readonly description: string;
  readonly accessMode: AccessMode;
  readonly units: Readonly<Partial<Record<RepoUnit, AccessMode>>>;
  readonly includesAllRepositories: boolean;
  readonly canCreateOrgRepo: boolean;
}

/** Creates a team. A name taken in the organization (any case) violates team_org_name_key. */
export async function insertTeam(db: Db, orgId: number, values: TeamValues): Promise<Team> {
  return db
    .insertInto("team")
    .values({ ...values, orgId, lowerName: values.name.toLowerCase(), units: JSON.stringify(values.units) })
    .returning(TEAM_COLUMNS.map((c) => c.replace("team.", "") as never))
    .executeTakeFirstOrThrow() as Promise<Team>;
}

/** Replaces a team's settings. */
export async function updateTeam(db: Db, id: number, values: TeamValues): Promise<Team | undefined> {
  return db
    .updateTable("team")
    .set({ ...values, lowerName: values.name.toLowerCase(), units: JSON.stringify(values.units) })
    .where("id", "=", id)
    .returning(TEAM_COLUMNS.map((c) => c.replace("team.", "") as never))
    .executeTakeFirst() as Promise<Team | undefined>;
}

export async function findTeamById(db: Db, id: number): Promise<Team | undefined> {
  return db.selectFrom("team").select(TEAM_COLUMNS).where("team.id", "=", id).executeTakeFirst();
}

/** The team of an organization with this name (case-insensitive). */
export async function findTeamByName(db: Db, orgId: number, name: string): Promise<Team | undefined> {
  return db
    .selectFrom("team")
    .select(TEAM_COLUMNS)
    .where("team.orgId", "=", orgId)
    .where("team.lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
}

/** The organization's Owners team (there is exactly one). */
export async function findOwnersTeam(db: Db, orgId: number): Promise<Team | undefined> {
  return db
    .selectFrom("team")
    .select(TEAM_COLUMNS)
    .where("team.orgId", "=", orgId)
    .where("team.accessMode", "=", "owner")
    .executeTakeFirst();
}

/** One page of an organization's teams, optionally matching a keyword in the name (and description). */
export async function listTeams(
  db: Db,
  orgId: number,
  opts: { keyword?: string; includeDescription?: boolean },
  page: PageRequest,
): Promise<Paged<Team>> {
  let q = db.selectFrom("team").where("team.orgId", "=", orgId);
  if (opts.keyword) {
    const pattern = `%${escapeLike(opts.keyword.toLowerCase())}%`;
    q = q.where((eb) =>
      eb.or([
        eb("team.lowerName", "like", pattern),
        ...(opts.includeDescription ? [eb(sql`lower(team.description)`, "like", pattern)] : []),
      ]),
    );
  }
  return pageOf(q, (rows) => rows.select(TEAM_COLUMNS).orderBy("team.id"), page);
}

/** Every team of the organization that covers the repository (all its repositories, or this one). */
export async function listTeamsOfRepo(db: Db, orgId: number, repoId: number): Promise<Team[]> {
  return db
    .selectFrom("team")
    .select(TEAM_COLUMNS)
    .where("team.orgId", "=", orgId)
    .where((eb) =>
      eb.or([
        eb("team.includesAllRepositories", "=", true),
        eb.exists(
          eb
            .selectFrom("teamRepo")
            .select("teamRepo.repoId")
            .whereRef("teamRepo.teamId", "=", "team.id")
            .where("teamRepo.repoId", "=", repoId),
        ),
      ]),
    )
    .orderBy("team.id")
    .execute();
}

export async function deleteTeam(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom("team").where("id", "=", id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Adds a user to a team (no-op when already in it). */
export async function addTeamMember(db: Db, team: Team, userId: number): Promise<void> {
  await db
    .insertInto("teamUser")
    .values({ teamId: team.id, orgId: team.orgId, userId })
    .onConflict((oc) => oc.columns(["teamId", "userId"]).doNothing())
    .execute();
}

export async function removeTeamMember(db: Db, teamId: number, userId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("teamUser")
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

export async function isTeamMember(db: Db, teamId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("teamUser")
    .select("id")
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countTeamMembers(db: Db, teamId: number): Promise<number> {
  const row = await db
    .selectFrom("teamUser")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("teamId", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of a team's members, by id. */
export async function listTeamMembers(db: Db, teamId: number, page: PageRequest): Promise<Paged<User>> {
  const q = db
    .selectFrom("teamUser")
    .innerJoin("users", "users.id", "teamUser.userId")
    .where("teamUser.teamId", "=", teamId);
  return pageOf(
    q,
    (rows) => rows.select(USER_COLUMNS.map((c) => `users.${c}` as const)).orderBy("users.id"),
    page,
  );
}

/** The teams of an organization that a user belongs to. */
export async function teamsOfMember(db: Db, orgId: number, userId: number): Promise<Team[]> {
  return db
    .selectFrom("teamUser")
    .innerJoin("team", "team.id", "teamUser.teamId")
    .where("teamUser.orgId", "=", orgId)
    .where("teamUser.userId", "=", userId)
    .select(TEAM_COLUMNS)
    .orderBy("team.id")
    .execute();
}

/** One page of every team a user belongs to, across organizations. */
export async function listTeamsOfUser(
  db: Db,
  viewer: NonNullable<RepoViewer>,
  page: PageRequest,
): Promise<Paged<Team>> {
  const q = db
    .selectFrom("teamUser")
    .innerJoin("team", "team.id", "teamUser.teamId")
    .innerJoin("users as org", "org.id", "team.orgId")
    .where("teamUser.userId", "=", viewer.id)
    .where(accountVisibleTo(viewer, "org"));
  return pageOf(q, (rows) => rows.select(TEAM_COLUMNS).orderBy("team.id"), page);
}

/** Gives a team access to a repository (no-op when it has it). */
export async function addTeamRepo(db: Db, team: Team, repoId: number): Promise<void> {
  await db
    .insertInto("teamRepo")
    .values({ teamId: team.id, orgId: team.orgId, repoId })
    .onConflict((oc) => oc.columns(["teamId", "repoId"]).doNothing())
    .execute();
}

export async function removeTeamRepo(db: Db, teamId: number, repoId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("teamRepo")
    .where("teamId", "=", teamId)
    .where("repoId", "=", repoId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Ids of the repositories explicitly given to any of these teams. */
export async function teamRepoIds(db: Db, teamIds: readonly number[], repoId?: number): Promise<Set<number>> {
  if (teamIds.length === 0) return new Set();
  let q = db.selectFrom("teamRepo").select("repoId").where("teamId", "in", teamIds);
  if (repoId !== undefined) q = q.where("repoId", "=", repoId);
  return new Set((await q.execute()).map((r) => r.repoId));
}

/** Takes a repository away from every team (when it leaves its organization). */
export async function removeRepoFromAllTeams(db: Db, repoId: number): Promise<void> {
  await db.deleteFrom("teamRepo").where("repoId", "=", repoId).execute();
}
