import {
  type AccessMode,
  type CollaboratorMode,
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type User,
} from "@kiln/domain";
import { collaborations } from "@kiln/storage";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import { assertNoBlockBetween } from "../social/block-service.js";

/** Repository collaborators (Forgejo's routers/api/v1/repo/collaborators.go). */
export class CollaboratorService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
  ) {}

  async list(repo: Repository, page: PageRequest): Promise<Paged<User>> {
    const found = await collaborations.listCollaborators(this.ctx.db, repo.id, page);
    return { items: found.items.map((c) => c.user), total: found.total };
  }

  async isCollaborator(repo: Repository, user: User): Promise<boolean> {
    return (await collaborations.findCollaboratorMode(this.ctx.db, repo.id, user.id)) !== undefined;
  }

  /**
   * `doer` adds a collaborator or changes their mode; organizations and the owner cannot be
   * collaborators (422). Forgejo's AddCollaborator: 403 when the user and the owner block each
   * other, either way; Kiln also asks the same of the user and the doer.
   */
  async add(repo: Repository, user: User, mode: CollaboratorMode, doer: User): Promise<void> {
    if (user.type !== "individual") throw new InvalidArgumentError(`${user.name} is an organization`);
    if (user.id === repo.ownerId)
      throw new InvalidArgumentError("the owner of a repository cannot be a collaborator");
    await assertNoBlockBetween(this.ctx.db, [repo.ownerId, doer.id], user.id);
    await collaborations.upsertCollaborator(this.ctx.db, repo.id, user.id, mode);
  }

  async remove(repo: Repository, user: User): Promise<void> {
    if (!(await collaborations.removeCollaborator(this.ctx.db, repo.id, user.id))) {
      throw new NotFoundError(`user is not a collaborator [name: ${user.name}]`);
    }
  }

  /** The user's overall mode on the repository, as `GET …/collaborators/{user}/permission` reports it. */
  async accessModeOf(repo: Repository, user: User): Promise<AccessMode> {
    return (await this.permissions.forRepository(user, repo)).mode;
  }
}
