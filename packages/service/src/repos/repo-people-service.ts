import type { User } from "@kiln/domain";
import { repoPeople } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import type { ServiceContext } from "../context.js";

/**
 * Who a repository's issues and pull requests can name (Forgejo's routers/api/v1/repo/repo.go
 * GetAssignees and GetReviewers): each a single query, for a repository the access module
 * resolved for the caller.
 */
export class RepoPeopleService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Users who may be assigned: writers (collaborators, covering teams) and a user owner. */
  assignees(access: RepoAccess): Promise<User[]> {
    return repoPeople.listAssignees(this.ctx.db, access.repo);
  }

  /**
   * Users who may be asked for a review: readers; for a public repository of a visible owner also
   * its watchers and the owning organization's members.
   */
  reviewers(access: RepoAccess): Promise<User[]> {
    return repoPeople.listReviewers(
      this.ctx.db,
      access.repo,
      access.owner.visibility === "private",
      access.viewer?.id ?? null,
    );
  }
}
