import { type Db, issues, labels, milestones } from "@kiln/storage";

/** Recounts a repository's issues and the milestones and labels a change touched. */
export async function recountIssueCounters(
  db: Db,
  repoId: number,
  milestoneIds: readonly (number | null)[],
  labelIds: readonly number[],
): Promise<void> {
  await issues.recountRepoIssues(db, repoId);
  await milestones.recountMilestones(db, milestoneIds);
  await labels.recountLabels(db, labelIds);
}
