import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../database.js";

/** Who is looking at repositories; null for anonymous requests. */
export type RepoViewer = {
  readonly id: number;
  readonly isAdmin: boolean;
  readonly isRestricted: boolean;
} | null;

/**
 * SQL for "the viewer may see this repository", as the permission service decides it, for lists
 * and counts: the owner must be visible to the viewer (public; limited when signed in; otherwise
 * the viewer is the owner or a member of the owning organization), and the repository is public
 * (not for restricted users), or the viewer belongs to a team of the owning organization that
 * includes it. Owners and collaborators always see it; site admins see everything.
 */
export function repoVisibleTo(
  viewer: RepoViewer,
): (eb: ExpressionBuilder<Database, "repository">) => Expression<SqlBool> {
  return (eb) => {
    if (viewer?.isAdmin) return eb.lit(true);
    // Mirrors the permission service's ownerVisible(): public owners (for restricted viewers, only
    // individuals), limited owners for signed-in viewers, and always one's own organizations.
    const ownerVisible = eb.exists(
      eb
        .selectFrom("users as owner")
        .select("owner.id")
        .whereRef("owner.id", "=", "repository.ownerId")
        .where((o) => {
          if (!viewer) return o("owner.visibility", "=", "public");
          const member = o.exists(
            o
              .selectFrom("orgUser")
              .select("orgUser.id")
              .whereRef("orgUser.orgId", "=", "owner.id")
              .where("orgUser.userId", "=", viewer.id),
          );
          if (viewer.isRestricted) {
            return o.or([
              member,
              o.and([o("owner.visibility", "=", "public"), o("owner.type", "=", "individual")]),
            ]);
          }
          return o.or([o("owner.visibility", "in", ["public", "limited"]), member]);
        }),
    );
    if (!viewer) return eb.and([ownerVisible, eb("repository.isPrivate", "=", false)]);

    const repoVisible = eb.or([
      ...(viewer.isRestricted ? [] : [eb("repository.isPrivate", "=", false)]),
      teamCovers(eb, viewer.id),
    ]);
    return eb.or([
      eb("repository.ownerId", "=", viewer.id),
      collaborates(eb, viewer.id),
      eb.and([ownerVisible, repoVisible]),
    ]);
  };
}

/** SQL for "the user owns, collaborates on, or reaches through a team, this repository". */
export function repoAccessibleBy(
  userId: number,
): (eb: ExpressionBuilder<Database, "repository">) => Expression<SqlBool> {
  return (eb) =>
    eb.or([eb("repository.ownerId", "=", userId), collaborates(eb, userId), teamCovers(eb, userId)]);
}

type RepoExpressions = ExpressionBuilder<Database, "repository">;

/** The user is a collaborator of the repository. */
function collaborates(eb: RepoExpressions, userId: number): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom("collaboration")
      .select("collaboration.id")
      .whereRef("collaboration.repoId", "=", "repository.id")
      .where("collaboration.userId", "=", userId),
  );
}

/** The user is in a team of the owning organization that includes the repository. */
function teamCovers(eb: RepoExpressions, userId: number): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom("teamUser")
      .innerJoin("team", "team.id", "teamUser.teamId")
      .select("team.id")
      .whereRef("team.orgId", "=", "repository.ownerId")
      .where("teamUser.userId", "=", userId)
      .where((t) =>
        t.or([
          t("team.includesAllRepositories", "=", true),
          t.exists(
            t
              .selectFrom("teamRepo")
              .select("teamRepo.id")
              .whereRef("teamRepo.teamId", "=", "team.id")
              .whereRef("teamRepo.repoId", "=", "repository.id"),
          ),
        ]),
      ),
  );
}
