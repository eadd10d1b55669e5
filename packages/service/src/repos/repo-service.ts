import { NotFoundError, type Repository, type User } from "@kiln/domain";
import { repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { PermissionService } from "../permissions/permission-service.js";
import { hasAccess, type RepoPermission } from "../permissions/repo-permission.js";

/** Repositories: lookup with visibility (Forgejo's repoAssignment), and what issue 5 adds. */
export class RepoService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
  ) {}

  /**
   * The repository `owner/name` if `viewer` may see it, with the viewer's permission.
   * Private repositories are 404 to anyone without access, never 403.
   */
  async getWithPermission(
    owner: User,
    name: string,
    viewer: User | null,
  ): Promise<{ repo: Repository; permission: RepoPermission }> {
    const repo = await repositories.findRepositoryByName(this.ctx.db, owner.id, name);
    if (!repo) throw new NotFoundError(`repository does not exist [owner: ${owner.name}, name: ${name}]`);
    const permission = await this.permissions.forRepository(viewer, repo);
    if (!hasAccess(permission))
      throw new NotFoundError(`repository does not exist [owner: ${owner.name}, name: ${name}]`);
    return { repo, permission };
  }

  /** The repository `owner/name` if `viewer` may see it. */
  async getVisible(owner: User, name: string, viewer: User | null): Promise<Repository> {
    return (await this.getWithPermission(owner, name, viewer)).repo;
  }
}
