import type { AccessMode, CollaboratorMode, Repository, RepoUnit, User } from "@kiln/domain";
import { type ExpressionBuilder, sql } from "kysely";
import type { Database, Db } from "../database.js";
import { cachedRead } from "../read-cache.js";
import { REPO_COLUMNS } from "./repositories.js";
import { USER_COLUMNS } from "./user-columns.js";

/** A team of the owning organization the viewer belongs to, as it bears on one repository. */
export interface StoredTeamGrant {
  readonly accessMode: AccessMode;
  readonly units: Readonly<Partial<Record<RepoUnit, AccessMode>>>;
  readonly coversRepo: boolean;
}

/** A repository, its owner, and everything about the viewer that decides the viewer's permission. */
export interface RepoAccessRow {
  readonly repo: Repository;
  readonly owner: User;
  /** The viewer's collaborator mode, or null. */
  readonly collaborator: CollaboratorMode | null;
  /** Whether the viewer is a member of the owning organization. */
  readonly orgMember: boolean;
  /** The viewer's teams in the owning organization. */
  readonly teams: readonly StoredTeamGrant[];
}

/** Which repositories to load: one by owner and name, one by id, or several by id. */
export type RepoAccessKey =
  | { readonly ownerName: string; readonly name: string }
  | { readonly id: number }
  | { readonly ids: readonly number[] };

const OWNER_PREFIX = "acct";
const ownerAlias = (c: string) => `${OWNER_PREFIX}${c[0]?.toUpperCase()}${c.slice(1)}`;

/**
 * Loads repositories with their owners and the viewer's collaboration, membership and team
 * grants in ONE query: the facts the access module judges (anonymous viewers: just repository
 * and owner). The request path of every repository route goes through here once.
 */
export async function findRepoAccess(
  db: Db,
  key: RepoAccessKey,
  viewerId: number | null,
): Promise<RepoAccessRow[]> {
  const id =
    "ownerName" in key ? `${key.ownerName.toLowerCase()}/${key.name.toLowerCase()}` : JSON.stringify(key);
  return cachedRead(db, `repo-access:${viewerId}:${id}`, () => loadRepoAccess(db, key, viewerId));
}

async function loadRepoAccess(db: Db, key: RepoAccessKey, viewerId: number | null): Promise<RepoAccessRow[]> {
  if ("ids" in key && key.ids.length === 0) return [];
  // No name holds a NUL byte, and PostgreSQL refuses one in text.
  if ("ownerName" in key && (key.ownerName.includes("\0") || key.name.includes("\0"))) return [];
  let q = db.selectFrom("repository").innerJoin("users as owner", "owner.id", "repository.ownerId");
  if ("ownerName" in key) {
    q = q
      .where("owner.lowerName", "=", key.ownerName.toLowerCase())
      .where("repository.lowerName", "=", key.name.toLowerCase());
  } else if ("id" in key) q = q.where("repository.id", "=", key.id);
  else q = q.where("repository.id", "in", key.ids);

  const rows = await q
    .select(REPO_COLUMNS)
    .select(USER_COLUMNS.map((c) => `owner.${c} as ${ownerAlias(c)}` as `owner.${typeof c} as acctId`))
    .select((eb) => viewerFacts(eb, viewerId))
    .execute();
  return rows.map((row) => toAccessRow(row as unknown as Record<string, unknown>));
}

function viewerFacts(
  eb: ExpressionBuilder<Database & { owner: Database["users"] }, "repository" | "owner">,
  viewerId: number | null,
) {
  if (viewerId === null) {
    return [
      sql<CollaboratorMode | null>`null`.as("viewerCollaborator"),
      sql<boolean>`false`.as("viewerOrgMember"),
      sql<StoredTeamGrant[] | null>`null`.as("viewerTeams"),
    ];
  }
  return [
    eb
      .selectFrom("collaboration")
      .select("collaboration.mode")
      .whereRef("collaboration.repoId", "=", "repository.id")
      .where("collaboration.userId", "=", viewerId)
      .as("viewerCollaborator"),
    eb
      .exists(
        eb
          .selectFrom("orgUser")
          .select("orgUser.id")
          .whereRef("orgUser.orgId", "=", "owner.id")
          .where("orgUser.userId", "=", viewerId),
      )
      .as("viewerOrgMember"),
    eb
      .selectFrom("teamUser")
      .innerJoin("team", "team.id", "teamUser.teamId")
      .whereRef("team.orgId", "=", "owner.id")
      .where("teamUser.userId", "=", viewerId)
      .select(
        sql<StoredTeamGrant[]>`jsonb_agg(jsonb_build_object(
          'accessMode', team.access_mode,
          'units', team.units,
          'coversRepo', team.includes_all_repositories or exists (
            select 1 from team_repo where team_repo.team_id = team.id and team_repo.repo_id = repository.id)))`.as(
          "grants",
        ),
      )
      .as("viewerTeams"),
  ];
}

function toAccessRow(row: Record<string, unknown>): RepoAccessRow {
  const owner: Record<string, unknown> = {};
  for (const c of USER_COLUMNS) owner[c] = row[ownerAlias(c)];
  const repo: Record<string, unknown> = {};
  for (const c of REPO_COLUMNS) {
    const name = c.slice("repository.".length);
    repo[name] = row[name];
  }
  const teams = row.viewerTeams;
  return {
    repo: repo as unknown as Repository,
    owner: owner as unknown as User,
    collaborator: (row.viewerCollaborator as CollaboratorMode | null | undefined) ?? null,
    orgMember: row.viewerOrgMember === true,
    teams: Array.isArray(teams) ? (teams as StoredTeamGrant[]) : [],
  };
}
