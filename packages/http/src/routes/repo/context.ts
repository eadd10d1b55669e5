import {
  NotFoundError,
  PermissionDeniedError,
  type Repository,
  type RepoUnit,
  type User,
} from "@kiln/domain";
import { canRead, canWrite, isRepoAdmin, type Principal, type RepoPermission } from "@kiln/service";
import * as v from "valibot";
import { toApiRepository } from "../../convert/repository.js";
import { toApiUser } from "../../convert/user.js";
import type { AppContext } from "../../env.js";

/** The `{owner}/{repo}` path parameters every repository route has. */
export const repoParams = { owner: v.string(), repo: v.string() };

/** A repository as a route sees it: the row, its owner and the caller's permission. */
export interface RepoContext {
  readonly owner: User;
  readonly repo: Repository;
  readonly permission: RepoPermission;
  readonly viewer: User | null;
}

/**
 * Forgejo's repoAssignment: the repository `owner/repo` if the caller may see it (404 otherwise,
 * never 403 for a private repository); a `public-only` token gets 403 on private repositories.
 */
export async function loadRepo(
  c: AppContext,
  ownerName: string,
  repoName: string,
  principal: Principal | null,
): Promise<RepoContext> {
  const viewer = principal?.user ?? null;
  // The owner's visibility is part of the permission; an unknown owner is simply not found.
  const owner = await c.var.services.users.findByName(ownerName);
  if (!owner) throw new NotFoundError(`user does not exist [name: ${ownerName}]`);
  const { repo, permission } = await c.var.services.repositories.getWithPermission(
    owner,
    repoName.replace(/\.git$/, ""),
    viewer,
  );
  if (principal?.scopes?.publicOnly && repo.isPrivate)
    throw new PermissionDeniedError("token scope is limited to public repos");
  return { owner, repo, permission, viewer };
}

/** Forgejo's reqOwner: the repository's owner (or an owner of its organization) or a site admin. */
export function requireRepoOwner(ctx: RepoContext): void {
  if (ctx.permission.mode !== "owner" && !ctx.viewer?.isAdmin)
    throw new PermissionDeniedError("user should be the owner of the repo");
}

/** Forgejo's reqAdmin: repository administrators (and owners, site admins). */
export function requireRepoAdmin(ctx: RepoContext): void {
  if (!isRepoAdmin(ctx.permission) && !ctx.viewer?.isAdmin) {
    throw new PermissionDeniedError(
      "user should be an owner or a collaborator with admin write of a repository",
    );
  }
}

/** Forgejo's reqRepoWriter: write access to one of the units. */
export function requireRepoWriter(ctx: RepoContext, ...units: RepoUnit[]): void {
  if (
    !units.some((u) => canWrite(ctx.permission, u)) &&
    !isRepoAdmin(ctx.permission) &&
    !ctx.viewer?.isAdmin
  ) {
    throw new PermissionDeniedError("user should have a permission to write to a repo");
  }
}

/** Forgejo's reqRepoReader: read access to the unit. */
export function requireRepoReader(ctx: RepoContext, unit: RepoUnit): void {
  if (!canRead(ctx.permission, unit) && !isRepoAdmin(ctx.permission) && !ctx.viewer?.isAdmin) {
    throw new PermissionDeniedError(
      "user should have specific read permission or be a repo admin or a site admin",
    );
  }
}

/** The repository in API shape for the caller, with a pending transfer when there is one. */
export async function apiRepo(
  c: AppContext,
  repo: Repository,
  viewer: User | null,
  permission?: RepoPermission,
) {
  const owner = await c.var.services.repositories.ownerOf(repo);
  const p = permission ?? (await c.var.services.permissions.forRepository(viewer, repo));
  const json = toApiRepository(repo, owner, viewer, p, c.var.settings);
  const transfer = await c.var.services.transfers.pending(repo);
  if (!transfer) return json;
  return {
    ...json,
    repo_transfer: {
      doer: toApiUser(transfer.doer, viewer, c.var.settings),
      recipient: toApiUser(transfer.recipient, viewer, c.var.settings),
      teams: transfer.teams.map((t) => ({ id: t.id, name: t.name })),
    },
  };
}
