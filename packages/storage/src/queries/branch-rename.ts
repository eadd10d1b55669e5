import type { Db } from "../database.js";

/**
 * The rows a branch rename changes (Forgejo's models/git RenameBranch), in the caller's transaction:
 * the protection rule named exactly like the branch takes the new name, the repository's default
 * branch follows when it was the renamed one, and open pull requests into the branch target the
 * new name.
 */
export async function renameBranchRows(
  db: Db,
  repoId: number,
  from: string,
  to: string,
  wasDefault: boolean,
): Promise<void> {
  await db
    .updateTable("protectedBranch")
    .set({ ruleName: to })
    .where("repoId", "=", repoId)
    .where("ruleName", "=", from)
    .execute();
  if (wasDefault)
    await db.updateTable("repository").set({ defaultBranch: to }).where("id", "=", repoId).execute();
  await db
    .updateTable("pullRequest")
    .set({ baseBranch: to })
    .where("baseRepoId", "=", repoId)
    .where("baseBranch", "=", from)
    .where("hasMerged", "=", false)
    .execute();
}
