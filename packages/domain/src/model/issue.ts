/** A label of a repository (`repoId`) or of an organization (`orgId`). */
export interface Label {
  readonly id: number;
  readonly repoId: number | null;
  readonly orgId: number | null;
  readonly name: string;
  readonly exclusive: boolean;
  readonly description: string;
  /** `#rrggbb`, lower case. */
  readonly color: string;
  readonly numIssues: number;
  readonly numClosedIssues: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A milestone of a repository. */
export interface Milestone {
  readonly id: number;
  readonly repoId: number;
  readonly name: string;
  readonly content: string;
  readonly isClosed: boolean;
  readonly numIssues: number;
  readonly numClosedIssues: number;
  readonly deadline: Date | null;
  readonly closedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An issue or a pull request (`isPull`); `index` is its number in the repository. */
export interface Issue {
  readonly id: number;
  readonly repoId: number;
  readonly index: number;
  /** Null when the poster's account was deleted (shown as the Ghost user). */
  readonly posterId: number | null;
  readonly title: string;
  readonly content: string;
  readonly milestoneId: number | null;
  readonly isClosed: boolean;
  readonly isPull: boolean;
  readonly isLocked: boolean;
  readonly ref: string;
  readonly pinOrder: number;
  readonly numComments: number;
  readonly deadline: Date | null;
  readonly closedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Forgejo's CommentType numbers (models/issues/comment.go): 0 is a plain comment, the rest are timeline events. */
export const CommentType = {
  comment: 0,
  reopen: 1,
  close: 2,
  issueRef: 3,
  commitRef: 4,
  commentRef: 5,
  pullRef: 6,
  label: 7,
  milestone: 8,
  assignees: 9,
  changeTitle: 10,
  deleteBranch: 11,
  startTracking: 12,
  stopTracking: 13,
  addTimeManual: 14,
  cancelTracking: 15,
  addedDeadline: 16,
  modifiedDeadline: 17,
  removedDeadline: 18,
  addDependency: 19,
  removeDependency: 20,
  code: 21,
  review: 22,
  lock: 23,
  unlock: 24,
  changeTargetBranch: 25,
  deleteTimeManual: 26,
  reviewRequest: 27,
  mergePull: 28,
  pullPush: 29,
  project: 30,
  projectBoard: 31,
  dismissReview: 32,
  changeIssueRef: 33,
  pullScheduledMerge: 34,
  pullCancelScheduledMerge: 35,
  pin: 36,
  unpin: 37,
} as const;

/** The API's name of each comment type (Forgejo's `commentStrings`), by number. */
export const COMMENT_TYPE_NAMES = [
  "comment",
  "reopen",
  "close",
  "issue_ref",
  "commit_ref",
  "comment_ref",
  "pull_ref",
  "label",
  "milestone",
  "assignees",
  "change_title",
  "delete_branch",
  "start_tracking",
  "stop_tracking",
  "add_time_manual",
  "cancel_tracking",
  "added_deadline",
  "modified_deadline",
  "removed_deadline",
  "add_dependency",
  "remove_dependency",
  "code",
  "review",
  "lock",
  "unlock",
  "change_target_branch",
  "delete_time_manual",
  "review_request",
  "merge_pull",
  "pull_push",
  "project",
  "project_board",
  "dismiss_review",
  "change_issue_ref",
  "pull_scheduled_merge",
  "pull_cancel_scheduled_merge",
  "pin",
  "unpin",
] as const;

/** A comment or timeline event of an issue. */
export interface Comment {
  readonly id: number;
  readonly type: number;
  readonly issueId: number;
  readonly posterId: number | null;
  readonly content: string;
  readonly labelId: number | null;
  readonly oldMilestoneId: number | null;
  readonly milestoneId: number | null;
  readonly assigneeId: number | null;
  readonly removedAssignee: boolean;
  readonly oldTitle: string;
  readonly newTitle: string;
  readonly oldRef: string;
  readonly newRef: string;
  readonly dependentIssueId: number | null;
  readonly timeId: number | null;
  /** The review a review entry, line comment or dismissal belongs to. */
  readonly reviewId: number | null;
  /** The commit a merge or line comment is about. */
  readonly commitSha: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Issue list orders (Forgejo's `sort`); `latest` is the default. */
export type IssueSort =
  | "latest"
  | "oldest"
  | "recentupdate"
  | "leastupdate"
  | "mostcomment"
  | "leastcomment"
  | "nearduedate"
  | "farduedate";
