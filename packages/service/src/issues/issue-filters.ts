import {
  InvalidArgumentError,
  type IssueSort,
  MAX_STORED_TIME_MS,
  MIN_STORED_TIME_MS,
  NotFoundError,
  parseRfc3339,
  type Repository,
} from "@kiln/domain";
import { type Db, type IssueFilter, labels, milestones, users } from "@kiln/storage";

/** The filters of an issue list, as the query string gives them. */
export interface IssueListQuery {
  readonly state?: string | undefined;
  readonly labels?: string | undefined;
  readonly milestones?: string | undefined;
  readonly q?: string | undefined;
  readonly since?: string | undefined;
  readonly before?: string | undefined;
  readonly createdBy?: string | undefined;
  readonly assignedBy?: string | undefined;
  readonly mentionedBy?: string | undefined;
}

/** Forgejo's issue list orders (`sort`), the default first. */
export const ISSUE_SORTS: readonly IssueSort[] = [
  "latest",
  "oldest",
  "recentupdate",
  "leastupdate",
  "mostcomment",
  "leastcomment",
  "nearduedate",
  "farduedate",
];

/** Forgejo's `sort` values (any case); anything else is the default, newest first. */
export function issueSort(sort: string | undefined): IssueSort {
  const lowered = sort?.toLowerCase();
  return ISSUE_SORTS.find((s) => s === lowered) ?? "latest";
}

/** Forgejo's state rule: `closed` and `all`, anything else (or nothing) is open. */
export function stateOf(state: string | undefined): IssueFilter["state"] {
  return state === "closed" || state === "all" ? state : "open";
}

/**
 * An RFC 3339 time from the query (a real calendar date, as Go's parser reads it); 422 with Go's
 * wording when it is not one. A time outside what Kiln stores (1970 to 9999) is moved to that
 * edge: as a filter it means the same, and the databases are never given a date they cannot hold.
 */
export function parseTime(value: string | undefined): Date | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const text = value.trim();
  const ms = parseRfc3339(text);
  if (ms === undefined) {
    throw new InvalidArgumentError(
      `parsing time "${text}" as "2006-01-02T15:04:05Z07:00": cannot parse "${text}"`,
    );
  }
  return new Date(Math.min(MAX_STORED_TIME_MS, Math.max(MIN_STORED_TIME_MS, ms)));
}

/** A comma-separated list of a query (items are not trimmed, as Forgejo splits them). */
const items = (value: string | undefined) =>
  value === undefined || value === "" ? [] : value.split(",").slice(0, 50);

/** The id of a user named in a filter; 404 `user does not exist` for an unknown name, as Forgejo answers. */
async function userIdOf(db: Db, name: string | undefined): Promise<number | undefined> {
  if (!name) return undefined;
  const user = await users.findUserByName(db, name);
  if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`);
  return user.id;
}

/**
 * The filter of a repository's issue list. Labels are names of the repository's and its
 * organization's labels (the issue must carry each name; unknown names are dropped, and if none
 * is known there is no label filter, as in Forgejo); milestones are names or ids, any of them.
 */
export async function repoIssueFilter(db: Db, repo: Repository, query: IssueListQuery): Promise<IssueFilter> {
  const labelNames = items(query.labels);
  const found = await labels.usableLabelsByNames(db, repo.id, repo.ownerId, labelNames);
  const labelGroups = labelNames
    .map((name) => found.filter((label) => label.name === name).map((label) => label.id))
    .filter((group) => group.length > 0);
  const milestoneIds: number[] = [];
  for (const item of items(query.milestones)) {
    const byName = await milestones.findMilestoneByName(db, repo.id, item);
    const byId =
      byName ??
      (/^\d{1,15}$/.test(item) ? await milestones.findMilestone(db, repo.id, Number(item)) : undefined);
    if (byId) milestoneIds.push(byId.id);
  }
  return {
    repoIds: [repo.id],
    state: stateOf(query.state),
    labelGroups,
    milestoneIds,
    keyword: query.q?.trim() || undefined,
    updatedSince: parseTime(query.since),
    updatedBefore: parseTime(query.before),
    posterId: await userIdOf(db, query.createdBy),
    assigneeId: await userIdOf(db, query.assignedBy),
    mentionedId: await userIdOf(db, query.mentionedBy),
  };
}
