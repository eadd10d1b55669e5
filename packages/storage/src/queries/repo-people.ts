import type { Repository, User } from "@kiln/domain";
import { type ExpressionBuilder, sql } from "kysely";
import type { Database, Db } from "../database.js";
import { USER_COLUMNS } from "./user-columns.js";

/**
 * The people a repository's issues and pull requests can name, as Forgejo's
 * models/repo/user_repo.go finds them (GetRepoAssignees, GetReviewers): each list is one query
 * over collaborations, the owning organization's teams that cover the repository, watchers and
 * members, never a permission check per user. Only active individual accounts, ordered by name.
 */

type Eb = ExpressionBuilder<Database, "users">;

/** Members of the owner's teams that cover the repository, whose team passes `grants`. */
function teamMembers(eb: Eb, repo: Repository, grants: ReturnType<typeof sql<boolean>>) {
  return eb
    .selectFrom("teamUser")
    .innerJoin("team", "team.id", "teamUser.teamId")
    .select("teamUser.userId")
    .where("team.orgId", "=", repo.ownerId)
    .where((w) =>
      w.or([
        w("team.includesAllRepositories", "=", true),
        w.exists(
          w
            .selectFrom("teamRepo")
            .select("teamRepo.id")
            .whereRef("teamRepo.teamId", "=", "team.id")
            .where("teamRepo.repoId", "=", repo.id),
        ),
      ]),
    )
    .where(grants);
}

/** Whether the owner is an individual (whose own repositories list them too). */
function ownerIfIndividual(eb: Eb, repo: Repository) {
  return eb.and([
    eb("users.id", "=", repo.ownerId),
    eb.exists(
      eb
        .selectFrom("users as owner")
        .select("owner.id")
        .where("owner.id", "=", repo.ownerId)
        .where("owner.type", "=", "individual"),
    ),
  ]);
}

function people(db: Db, where: (eb: Eb) => ReturnType<Eb["or"]>): Promise<User[]> {
  return db
    .selectFrom("users")
    .select(USER_COLUMNS.map((c) => `users.${c}` as const))
    .where("users.type", "=", "individual")
    .where("users.isActive", "=", true)
    .where(where)
    .orderBy("users.lowerName")
    .execute() as Promise<User[]>;
}

/**
 * Who may be assigned: collaborators with write or admin, members of covering teams that write
 * some unit (or read pull requests), and the owner when it is a user.
 */
export function listAssignees(db: Db, repo: Repository): Promise<User[]> {
  const writes = sql<boolean>`(team.access_mode in ('write', 'admin', 'owner')
    or exists (select 1 from jsonb_each_text(team.units) u where u.value in ('write', 'admin', 'owner'))
    or team.units->>'repo.pulls' = 'read')`;
  return people(db, (eb) =>
    eb.or([
      eb(
        "users.id",
        "in",
        eb
          .selectFrom("collaboration")
          .select("collaboration.userId")
          .where("collaboration.repoId", "=", repo.id)
          .where("collaboration.mode", "in", ["write", "admin"]),
      ),
      eb("users.id", "in", teamMembers(eb, repo, writes)),
      ownerIfIndividual(eb, repo),
    ]),
  );
}

/**
 * Who may be asked for a review: everyone with read access (collaborators, covering teams, the
 * owner when it is a user); for a public repository of a visible owner also its watchers and the
 * owning organization's members (those who hide their membership only for the organization's
 * own members to see).
 */
export function listReviewers(
  db: Db,
  repo: Repository,
  ownerIsPrivate: boolean,
  viewerId: number | null,
): Promise<User[]> {
  const reads = sql<boolean>`(team.access_mode in ('read', 'write', 'admin', 'owner')
    or exists (select 1 from jsonb_each_text(team.units) u where u.value in ('read', 'write', 'admin', 'owner')))`;
  return people(db, (eb) => {
    const readers = [
      eb(
        "users.id",
        "in",
        eb
          .selectFrom("collaboration")
          .select("collaboration.userId")
          .where("collaboration.repoId", "=", repo.id),
      ),
      eb("users.id", "in", teamMembers(eb, repo, reads)),
      ownerIfIndividual(eb, repo),
    ];
    if (repo.isPrivate || ownerIsPrivate) return eb.or(readers);
    return eb.or([
      ...readers,
      eb(
        "users.id",
        "in",
        eb
          .selectFrom("watch")
          .select("watch.userId")
          .where("watch.repoId", "=", repo.id)
          .where("watch.mode", "in", [1, 3]),
      ),
      // Members who hide their membership are listed only to the organization's own members.
      eb(
        "users.id",
        "in",
        eb
          .selectFrom("orgUser")
          .select("orgUser.userId")
          .where("orgUser.orgId", "=", repo.ownerId)
          .where((w) =>
            w.or([
              w("orgUser.isPublic", "=", true),
              w.exists(
                w
                  .selectFrom("orgUser as viewerMembership")
                  .select("viewerMembership.id")
                  .where("viewerMembership.orgId", "=", repo.ownerId)
                  .where("viewerMembership.userId", "=", viewerId ?? -1),
              ),
            ]),
          ),
      ),
    ]);
  });
}
