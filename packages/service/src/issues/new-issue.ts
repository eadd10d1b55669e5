import { CommentType, type Issue, type Label, type Milestone, type User } from "@kiln/domain";
import { comments, type Db, issues } from "@kiln/storage";
import { recountIssueCounters } from "./issue-counters.js";
import { limitTitle } from "./issue-rules.js";

/** What a new issue or pull request starts with, resolved and checked by its service. */
export interface NewIssueRecord {
  readonly repoId: number;
  readonly poster: User;
  readonly title: string;
  readonly body: string;
  readonly ref: string;
  readonly milestone: Milestone | undefined;
  readonly labels: readonly Label[];
  readonly assignees: readonly User[];
  readonly mentioned: readonly User[];
  readonly deadline: Date | null;
  readonly isPull: boolean;
}

/**
 * Numbers and inserts a new issue or pull request in the caller's transaction, with its labels,
 * milestone and assignees (each with its timeline event) and its mentions.
 */
export async function insertNewIssue(trx: Db, record: NewIssueRecord, now: Date): Promise<Issue> {
  const index = await issues.nextIssueIndex(trx, record.repoId);
  const issue = await issues.insertIssue(
    trx,
    {
      repoId: record.repoId,
      posterId: record.poster.id,
      title: limitTitle(record.title),
      content: record.body,
      ref: record.ref,
      milestoneId: record.milestone?.id ?? null,
      deadline: record.deadline,
      isPull: record.isPull,
    },
    index,
    now,
  );
  const event = (type: number, fields: Record<string, unknown>) =>
    comments.insertComment(trx, { issueId: issue.id, type, posterId: record.poster.id, ...fields }, now);
  await issues.addIssueLabels(
    trx,
    issue.id,
    record.labels.map((label) => label.id),
  );
  for (const label of record.labels) await event(CommentType.label, { labelId: label.id, content: "1" });
  await issues.addAssignees(
    trx,
    issue.id,
    record.assignees.map((user) => user.id),
  );
  for (const user of record.assignees) await event(CommentType.assignees, { assigneeId: user.id });
  if (record.milestone) await event(CommentType.milestone, { milestoneId: record.milestone.id });
  await issues.markMentioned(
    trx,
    issue.id,
    record.mentioned.map((user) => user.id),
  );
  return issue;
}

/**
 * What every new issue or pull request ends its transaction with: the counters it moves
 * recounted. (Its `opened` event, which the caller records, notifies those it concerns.)
 */
export async function recountNewIssue(trx: Db, record: NewIssueRecord): Promise<void> {
  await recountIssueCounters(
    trx,
    record.repoId,
    [record.milestone?.id ?? null],
    record.labels.map((label) => label.id),
  );
}
