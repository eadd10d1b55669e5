import { InvalidArgumentError, type Repository, type User } from "@kiln/domain";
import { type Db, users } from "@kiln/storage";
import { mayBeAssigned } from "../access/issue-rules.js";
import type { PermissionService } from "../access/permission-service.js";

/**
 * The users named as assignees (`assignee` joined to `assignees`), each of whom may be assigned:
 * write access to any unit or read access to pull requests (Forgejo's CanBeAssigned); 422 with
 * Forgejo's messages otherwise.
 */
export async function resolveAssignees(
  db: Db,
  permissions: PermissionService,
  repo: Repository,
  assignee: string | undefined,
  assignees: readonly string[] | undefined,
): Promise<User[]> {
  const names = [...(assignees ?? [])];
  if (names[0] === "") names.length = 0;
  if (assignee) names.unshift(assignee);
  const unique = [...new Set(names.map((name) => name.toLowerCase()))].filter((name) => name !== "");
  const found = await users.findUsersByNames(db, unique);
  const byName = new Map(found.map((user) => [user.lowerName, user]));
  const result: User[] = [];
  for (const name of unique) {
    const user = byName.get(name);
    if (user?.type !== "individual") {
      throw new InvalidArgumentError(
        `Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`,
      );
    }
    const permission = await permissions.forRepository(user, repo);
    if (!mayBeAssigned(permission)) {
      throw new InvalidArgumentError(
        `user doesn't have access to repo [user_id: ${user.id}, repo_name: ${repo.name}]`,
      );
    }
    result.push(user);
  }
  return result;
}
