import type { ColumnType, Generated, Selectable } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;
/** A generated full-text column: read never, written never. */
type SearchVector = ColumnType<never, never, never>;

/** The next issue number of a repository (issues and pull requests share it). */
export interface IssueIndexTable {
  repoId: number;
  maxIndex: Generated<number>;
}

/** A label of a repository or of an organization (exactly one of the two ids is set). */
export interface LabelTable {
  id: Generated<number>;
  repoId: number | null;
  orgId: number | null;
  name: string;
  exclusive: Generated<boolean>;
  description: Generated<string>;
  /** `#rrggbb`, lower case. */
  color: string;
  numIssues: Generated<number>;
  numClosedIssues: Generated<number>;
  archivedAt: Date | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface MilestoneTable {
  id: Generated<number>;
  repoId: number;
  name: string;
  content: Generated<string>;
  isClosed: Generated<boolean>;
  numIssues: Generated<number>;
  numClosedIssues: Generated<number>;
  deadline: Date | null;
  closedAt: Date | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** An issue or a pull request (`isPull`): its number (`index`) is per repository. */
export interface IssueTable {
  id: Generated<number>;
  repoId: number;
  index: number;
  /** Null once the poster's account is deleted (shown as the Ghost user). */
  posterId: number | null;
  title: string;
  content: Generated<string>;
  milestoneId: number | null;
  isClosed: Generated<boolean>;
  isPull: Generated<boolean>;
  isLocked: Generated<boolean>;
  ref: Generated<string>;
  pinOrder: Generated<number>;
  numComments: Generated<number>;
  deadline: Date | null;
  closedAt: Date | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  search: SearchVector;
}

export interface IssueLabelTable {
  issueId: number;
  labelId: number;
}

export interface IssueAssigneesTable {
  issueId: number;
  assigneeId: number;
  createdAt: CreatedAt;
}

/** A user an issue concerns; `isMentioned` when @-mentioned in its body or comments. */
export interface IssueUserTable {
  issueId: number;
  userId: number;
  isMentioned: Generated<boolean>;
}

/** A comment (type 0) or a timeline event (Forgejo's CommentType numbers). */
export interface CommentTable {
  id: Generated<number>;
  type: Generated<number>;
  issueId: number;
  posterId: number | null;
  content: Generated<string>;
  labelId: number | null;
  oldMilestoneId: number | null;
  milestoneId: number | null;
  assigneeId: number | null;
  removedAssignee: Generated<boolean>;
  oldTitle: Generated<string>;
  newTitle: Generated<string>;
  oldRef: Generated<string>;
  newRef: Generated<string>;
  dependentIssueId: number | null;
  timeId: number | null;
  /** The review a line comment or review entry belongs to. */
  reviewId: Generated<number | null>;
  treePath: Generated<string>;
  /** The line of a code comment: positive on the new side, negative on the old side. */
  line: Generated<number>;
  commitSha: Generated<string>;
  patch: Generated<string>;
  invalidated: Generated<boolean>;
  resolveDoerId: Generated<number | null>;
  assigneeTeamId: Generated<number | null>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  search: SearchVector;
}

export interface TrackedTimeTable {
  id: Generated<number>;
  issueId: number;
  userId: number | null;
  /** Seconds. */
  time: number;
  deleted: Generated<boolean>;
  createdAt: CreatedAt;
}

export interface StopwatchTable {
  id: Generated<number>;
  issueId: number;
  userId: number;
  createdAt: CreatedAt;
}

/** An explicit subscription (`isWatching`) or unsubscription of a user to an issue. */
export interface IssueWatchTable {
  id: Generated<number>;
  issueId: number;
  userId: number;
  isWatching: boolean;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A reaction to an issue (`commentId` 0) or to one of its comments. */
export interface ReactionTable {
  id: Generated<number>;
  type: string;
  issueId: number;
  commentId: Generated<number>;
  userId: number | null;
  createdAt: CreatedAt;
}

/** `issueId` is blocked by `dependencyId`. */
export interface IssueDependencyTable {
  id: Generated<number>;
  issueId: number;
  dependencyId: number;
  userId: number | null;
  createdAt: CreatedAt;
}

/** What a user is told about: status 1 unread, 2 read, 3 pinned; source 1 issue, 2 pull, 3 commit, 4 repository. */
export interface NotificationTable {
  id: Generated<number>;
  userId: number;
  repoId: number;
  status: number;
  source: number;
  issueId: number | null;
  commentId: number | null;
  commitId: string | null;
  updatedBy: number | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** The issue tracker's tables (migration 0006). */
export interface IssueTables {
  issueIndex: IssueIndexTable;
  label: LabelTable;
  milestone: MilestoneTable;
  issue: IssueTable;
  issueLabel: IssueLabelTable;
  issueAssignees: IssueAssigneesTable;
  issueUser: IssueUserTable;
  comment: CommentTable;
  trackedTime: TrackedTimeTable;
  stopwatch: StopwatchTable;
  issueWatch: IssueWatchTable;
  reaction: ReactionTable;
  issueDependency: IssueDependencyTable;
  notification: NotificationTable;
}

export type LabelRow = Selectable<LabelTable>;
export type MilestoneRow = Selectable<MilestoneTable>;
export type IssueRow = Selectable<IssueTable>;
export type CommentRow = Selectable<CommentTable>;
export type TrackedTimeRow = Selectable<TrackedTimeTable>;
export type ReactionRow = Selectable<ReactionTable>;
export type NotificationRow = Selectable<NotificationTable>;
