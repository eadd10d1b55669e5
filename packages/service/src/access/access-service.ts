import { NotFoundError, PermissionDeniedError, type Repository, type Team, type User } from "@kiln/domain";
import {
  type Db,
  orgs,
  type RepoAccessRow,
  redirects,
  repoAccess,
  repositories,
  teams,
  users,
} from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { type Actor, viewerOf } from "./actor.js";
import { canSeeAccount, computeOrgPermission, type OrgPermission } from "./org-permission.js";
import { checkNeed, type RepoNeed } from "./repo-need.js";
import { computeRepoPermission, hasAccess, NO_PERMISSION, type RepoPermission } from "./repo-permission.js";

/** A repository as a request sees it: the row, its owner, the actor and the actor's permission. */
export interface RepoAccess {
  readonly repo: Repository;
  readonly owner: User;
  readonly permission: RepoPermission;
  readonly actor: Actor;
  /** The acting user (null when anonymous). */
  readonly viewer: User | null;
}

/** An organization as a request sees it, with the acting user's standing in it. */
export interface OrgAccess {
  readonly org: User;
  readonly isMember: boolean;
  readonly teams: readonly Team[];
  readonly permission: OrgPermission;
}

/** A team as a request sees it, with its organization and the acting user's standing there. */
export interface TeamAccess extends OrgAccess {
  readonly team: Team;
}

/** What an organization route needs of the caller: to see it, to be a member, or an owner. */
export type OrgNeed = "visible" | "member" | "owner";

/**
 * The access module: the one place that decides what an actor may see and do. Repository routes,
 * the git transport and LFS resolve repositories here (one query each); organization and account
 * routes resolve owners here; lists filter with the SQL fragments of `listFilter`. An invisible
 * thing is NotFound, whoever asks and however (a `public-only` token included); an insufficient
 * permission on a visible thing is Forbidden, with Forgejo's message for each requirement.
 */
export class AccessService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The repository `owner/name` for `actor`, checked against `need` (404 if invisible, 403 if short). */
  async repo(actor: Actor, ownerName: string, name: string, need: RepoNeed = "read"): Promise<RepoAccess> {
    const rows = await repoAccess.findRepoAccess(
      this.ctx.db,
      { ownerName, name: name.replace(/\.git$/, "") },
      actor.user?.id ?? null,
    );
    return this.judge(actor, rows[0], need, `[owner: ${ownerName}, name: ${name}]`);
  }

  /**
   * Where an `owner/name` that names no repository now leads, after renames and transfers
   * (Forgejo's LookupUserRedirect and LookupRedirect, followed in one step): the repository's
   * current owner and name, only when `actor` may read it; undefined otherwise, so a redirect
   * never tells anyone more than a 404 would.
   */
  async repoRedirect(
    actor: Actor,
    ownerName: string,
    name: string,
  ): Promise<{ readonly owner: string; readonly name: string } | undefined> {
    const repoName = name.replace(/\.git$/, "");
    const owner = await users.findUserByName(this.ctx.db, ownerName);
    let repoId: number | undefined;
    if (owner) {
      repoId = await redirects.lookupRepoRedirect(this.ctx.db, owner.id, repoName);
    } else {
      const ownerId = await redirects.lookupUserRedirect(this.ctx.db, ownerName);
      if (ownerId === undefined) return undefined;
      repoId =
        (await repositories.findRepositoryByName(this.ctx.db, ownerId, repoName))?.id ??
        (await redirects.lookupRepoRedirect(this.ctx.db, ownerId, repoName));
    }
    if (repoId === undefined) return undefined;
    try {
      const { repo } = await this.repoById(actor, repoId, "read");
      return { owner: repo.ownerName, name: repo.name };
    } catch (err) {
      if (err instanceof NotFoundError || err instanceof PermissionDeniedError) return undefined;
      throw err;
    }
  }

  /**
   * The current name of the account an old name leads to (Forgejo's LookupUserRedirect), only
   * when `actor` may see that account; undefined otherwise.
   */
  async accountRedirect(actor: Actor, name: string): Promise<string | undefined> {
    if (await users.findUserByName(this.ctx.db, name)) return undefined;
    const id = await redirects.lookupUserRedirect(this.ctx.db, name);
    if (id === undefined) return undefined;
    try {
      return (await this.accountById(actor, id)).name;
    } catch (err) {
      if (err instanceof NotFoundError || err instanceof PermissionDeniedError) return undefined;
      throw err;
    }
  }

  /** The repository with this id for `actor`, checked against `need`. */
  async repoById(actor: Actor, id: number, need: RepoNeed = "read"): Promise<RepoAccess> {
    const rows = await repoAccess.findRepoAccess(this.ctx.db, { id }, actor.user?.id ?? null);
    return this.judge(actor, rows[0], need, `[id: ${id}]`);
  }

  /**
   * The repository `key` names for `actor`, read through `db`: for an event consumer, which judges
   * inside the change's transaction (PGlite has one connection). Undefined when the actor may not
   * see it.
   */
  async repoIn(
    db: Db,
    actor: Actor,
    key: { readonly id: number } | { readonly ownerName: string; readonly name: string },
  ): Promise<RepoAccess | undefined> {
    const [row] = await repoAccess.findRepoAccess(db, key, actor.user?.id ?? null);
    const permission = row ? this.permissionOf(actor, row) : NO_PERMISSION;
    if (!row || !hasAccess(permission)) return undefined;
    return { repo: row.repo, owner: row.owner, permission, actor, viewer: actor.user };
  }

  /**
   * The actor's permission on each repository of a list, and each one's owner, from one query
   * (repositories the actor may not see get no permission).
   */
  async repoPermissions(
    actor: Actor,
    repos: readonly Repository[],
  ): Promise<Map<number, { owner: User; permission: RepoPermission }>> {
    const rows = await repoAccess.findRepoAccess(
      this.ctx.db,
      { ids: [...new Set(repos.map((r) => r.id))] },
      actor.user?.id ?? null,
    );
    return new Map(
      rows.map((row) => [row.repo.id, { owner: row.owner, permission: this.permissionOf(actor, row) }]),
    );
  }

  /** The repositories of a list the actor may see, with owner and permission (one query). */
  async visibleRepos(
    actor: Actor,
    repos: readonly Repository[],
  ): Promise<Map<number, { owner: User; permission: RepoPermission }>> {
    const all = await this.repoPermissions(actor, repos);
    return new Map([...all].filter(([, known]) => hasAccess(known.permission)));
  }

  /** The actor's permission on one repository whose row is already loaded. */
  async permissionOn(actor: Actor, repo: Repository): Promise<RepoPermission> {
    return (await this.repoPermissions(actor, [repo])).get(repo.id)?.permission ?? NO_PERMISSION;
  }

  /** Whether `actor` may see the account at all (Forgejo's HasOrgOrUserVisible, plus `public-only`). */
  async canSee(actor: Actor, account: User): Promise<boolean> {
    const viewer = viewerOf(actor);
    const member =
      viewer !== null &&
      account.type === "organization" &&
      (await orgs.findOrgMembership(this.ctx.db, account.id, viewer.id)) !== undefined;
    return canSeeAccount(viewer, account, member);
  }

  /** The user or organization named `name` if `actor` may see it; NotFound otherwise. */
  async account(actor: Actor, name: string): Promise<User> {
    const account = await users.findUserByName(this.ctx.db, name);
    if (!account || !(await this.canSee(actor, account)))
      throw new NotFoundError(`user does not exist [name: ${name}]`);
    return account;
  }

  /** The user or organization with this id if `actor` may see it; NotFound otherwise. */
  async accountById(actor: Actor, id: number): Promise<User> {
    const account = await users.findUserById(this.ctx.db, id);
    if (!account || !(await this.canSee(actor, account)))
      throw new NotFoundError(`user does not exist [uid: ${id}]`);
    return account;
  }

  /**
   * The organization named `name` for `actor`: NotFound when absent or invisible; 403 with
   * Forgejo's message when the actor is not a member (`member`) or owner (`owner`). Site admins
   * pass every requirement.
   */
  async org(actor: Actor, name: string, need: OrgNeed = "visible"): Promise<OrgAccess> {
    const org = await users.findUserByName(this.ctx.db, name);
    if (org?.type !== "organization") throw orgNotFound(name);
    const viewer = viewerOf(actor);
    const { isMember, teams: memberTeams, permission } = await this.standing(viewer, org);
    if (!canSeeAccount(viewer, org, isMember)) throw orgNotFound(name);
    const standing = { org, isMember, teams: memberTeams, permission };
    if (!meetsOrgNeed(actor, standing, need)) {
      throw new PermissionDeniedError(
        need === "owner" ? "Must be an organization owner" : "Must be an organization member",
      );
    }
    return standing;
  }

  /**
   * The team with this id for `actor` (Forgejo's reqTeamMembership, then reqOrgOwnership for
   * `owner`): site admins, owners of its organization and its members see it; other members of the
   * organization get 403 `Must be a team member`; anyone else, or a team of an organization the
   * actor may not see, is NotFound.
   */
  async team(actor: Actor, id: number, need: "member" | "owner" = "member"): Promise<TeamAccess> {
    const team = await teams.findTeamById(this.ctx.db, id);
    const org = team ? await users.findUserById(this.ctx.db, team.orgId) : undefined;
    if (!team || !org) throw teamNotFound(id);
    const viewer = viewerOf(actor);
    const { isMember, teams: memberTeams, permission } = await this.standing(viewer, org);
    if (!viewer || !canSeeAccount(viewer, org, isMember)) throw teamNotFound(id);
    const siteAdmin = actor.user?.isAdmin === true;
    const inTeam = memberTeams.some((t) => t.id === team.id);
    if (!siteAdmin && !inTeam && !permission.isOwner) {
      if (isMember) throw new PermissionDeniedError("Must be a team member");
      throw teamNotFound(id);
    }
    if (need === "owner" && !siteAdmin && !permission.isOwner)
      throw new PermissionDeniedError("Must be an organization owner");
    return { team, org, isMember, teams: memberTeams, permission };
  }

  /**
   * A user's membership, teams and derived permission in an organization (none when anonymous):
   * what a request's organization routes judge, and what services ask of a user.
   */
  async standing(
    viewer: { readonly id: number } | null,
    org: User,
  ): Promise<{ isMember: boolean; teams: Team[]; permission: OrgPermission }> {
    if (!viewer) return { isMember: false, teams: [], permission: computeOrgPermission([]) };
    const [membership, memberTeams] = await Promise.all([
      orgs.findOrgMembership(this.ctx.db, org.id, viewer.id),
      teams.teamsOfMember(this.ctx.db, org.id, viewer.id),
    ]);
    return {
      isMember: membership !== undefined,
      teams: memberTeams,
      permission: computeOrgPermission(memberTeams),
    };
  }

  private permissionOf(actor: Actor, row: RepoAccessRow): RepoPermission {
    const viewer = actor.user;
    if (actor.publicOnly && (row.repo.isPrivate || row.owner.visibility !== "public")) return NO_PERMISSION;
    return computeRepoPermission({
      viewer: viewer ? { id: viewer.id, isAdmin: viewer.isAdmin, isRestricted: viewer.isRestricted } : null,
      repo: { ownerId: row.repo.ownerId, isPrivate: row.repo.isPrivate },
      owner: { type: row.owner.type, visibility: row.owner.visibility },
      orgMember: row.orgMember,
      collaborator: row.collaborator,
      teams: row.teams,
    });
  }

  private judge(actor: Actor, row: RepoAccessRow | undefined, need: RepoNeed, what: string): RepoAccess {
    const permission = row ? this.permissionOf(actor, row) : NO_PERMISSION;
    if (!row || !hasAccess(permission)) throw new NotFoundError(`repository does not exist ${what}`);
    checkNeed(permission, need, actor.user);
    return { repo: row.repo, owner: row.owner, permission, actor, viewer: actor.user };
  }
}

function teamNotFound(id: number): NotFoundError {
  return new NotFoundError(`team does not exist [id: ${id}]`);
}

/**
 * Whether an actor with this standing in a visible organization meets `need`: members for
 * `member`, owners for `owner`; site admins meet every need. Pages use it to offer only what
 * {@link AccessService.org} would allow (the Teams tab).
 */
export function meetsOrgNeed(
  actor: Actor,
  standing: Pick<OrgAccess, "isMember" | "permission">,
  need: OrgNeed,
): boolean {
  if (actor.user?.isAdmin === true || need === "visible") return true;
  return need === "member" ? standing.isMember : standing.permission.isOwner;
}

/** Forgejo's not-found for an unknown or hidden organization. */
export function orgNotFound(name: string): NotFoundError {
  return new NotFoundError(`organization does not exist [name: ${name}]`);
}
