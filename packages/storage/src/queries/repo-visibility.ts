import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../database.js";

/**
 * Who is looking, as far as visibility goes; null for anonymous requests. `publicOnly` is a token
 * with Forgejo's `public-only` scope: it sees only what is public, even of its owner's own things.
 */
export type RepoViewer = {
  readonly id: number;
  readonly isAdmin: boolean;
  readonly isRestricted: boolean;
  readonly publicOnly: boolean;
} | null;

// biome-ignore lint/suspicious/noExplicitAny: the fragment applies to any query that has a `users` row under `alias`
type AnyExpressions = ExpressionBuilder<any, any>;

/**
 * SQL for "the viewer may see this account" (Forgejo's HasOrgOrUserVisible), over a `users` row
 * named `alias`: public accounts everyone (restricted viewers: only individuals), limited ones
 * signed-in viewers, one's own account and one's organizations always, everything for site
 * admins; a `public-only` viewer additionally sees only public accounts. The access module's
 * `canSeeAccount` is the same rule for one account; a test checks that they agree.
 */
export function accountVisibleTo(
  viewer: RepoViewer,
  alias: string,
): (eb: AnyExpressions) => Expression<SqlBool> {
  return (eb) => {
    const col = (c: string) => eb.ref(`${alias}.${c}`);
    const isPublic = eb(col("visibility"), "=", "public");
    if (!viewer) return isPublic;
    let rule: Expression<SqlBool>;
    if (viewer.isAdmin) rule = eb.lit(true);
    else {
      const member = eb.exists(
        eb
          .selectFrom("orgUser as viewerMembership")
          .select("viewerMembership.id")
          .whereRef("viewerMembership.orgId", "=", `${alias}.id`)
          .where("viewerMembership.userId", "=", viewer.id),
      );
      const self = eb(col("id"), "=", viewer.id);
      rule = viewer.isRestricted
        ? eb.or([
            self,
            member,
            eb.and([eb(col("type"), "=", "individual"), eb(col("visibility"), "in", ["public", "limited"])]),
          ])
        : eb.or([self, member, eb(col("visibility"), "in", ["public", "limited"])]);
    }
    return viewer.publicOnly ? eb.and([rule, isPublic]) : rule;
  };
}

/**
 * SQL for "the viewer may see this repository", as the access module decides it, for lists and
 * counts: the owner must be visible to the viewer (public; limited when signed in; otherwise
 * the viewer is the owner or a member of the owning organization), and the repository is public
 * (not for restricted users), or the viewer belongs to a team of the owning organization that
 * includes it. Owners and collaborators always see it; site admins see everything. A
 * `public-only` viewer sees only public repositories of public owners.
 */
export function repoVisibleTo(
  viewer: RepoViewer,
): (eb: ExpressionBuilder<Database, "repository">) => Expression<SqlBool> {
  return (eb) => {
    const rule = viewerRule(eb, viewer);
    if (!viewer?.publicOnly) return rule;
    return eb.and([rule, eb("repository.isPrivate", "=", false), ownerIsPublic(eb)]);
  };
}

function viewerRule(eb: RepoExpressions, viewer: RepoViewer): Expression<SqlBool> {
  if (viewer?.isAdmin) return eb.lit(true);
  if (!viewer) return eb.and([ownerIsPublic(eb), eb("repository.isPrivate", "=", false)]);
  // Mirrors canSeeAccount(): public owners (for restricted viewers, only individuals), limited
  // owners for signed-in viewers, and always one's own organizations.
  const ownerVisible = eb.exists(
    eb
      .selectFrom("users as owner")
      .select("owner.id")
      .whereRef("owner.id", "=", "repository.ownerId")
      .where(accountVisibleTo({ ...viewer, publicOnly: false }, "owner")),
  );
  const repoVisible = eb.or([
    ...(viewer.isRestricted ? [] : [eb("repository.isPrivate", "=", false)]),
    teamCovers(eb, viewer.id),
  ]);
  return eb.or([
    eb("repository.ownerId", "=", viewer.id),
    collaborates(eb, viewer.id),
    eb.and([ownerVisible, repoVisible]),
  ]);
}

/** The repository's owner is a public account. */
function ownerIsPublic(eb: RepoExpressions): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom("users as publicOwner")
      .select("publicOwner.id")
      .whereRef("publicOwner.id", "=", "repository.ownerId")
      .where("publicOwner.visibility", "=", "public"),
  );
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
export function collaborates(eb: RepoExpressions, userId: number): Expression<SqlBool> {
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
