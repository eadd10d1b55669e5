import {
  CommentType,
  type Issue,
  type IssueSort,
  type Paged,
  type PageRequest,
  ReviewType,
} from "@kiln/domain";
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { Database, Db } from "../database.js";
import { ISSUE_COLUMNS, issueReadableBy } from "./issues.js";
import { paged } from "./paging.js";
import type { RepoViewer } from "./repo-visibility.js";

export type { IssueSort } from "@kiln/domain";

/**
 * What an issue list shows. Each condition is answered from an index (a repository's issues,
 * label, assignee, mention and milestone indexes, and the full-text indexes of titles, bodies and
 * comments), never by reading every issue: a search over 100,000 issues costs what it costs over
 * 1,000 when it finds as many.
 */
export interface IssueFilter {
  /** Issues of these repositories. */
  readonly repoIds?: readonly number[];
  /** Issues of the repositories this viewer may see (optionally of one owner): cross-repository search. */
  readonly visibleTo?: { readonly viewer: RepoViewer; readonly ownerId?: number | undefined };
  readonly state: "open" | "closed" | "all";
  /** Pull requests (true), issues (false), or both (undefined). */
  readonly isPull?: boolean | undefined;
  /** Issues that carry, for every group, one of its labels (a group holds the labels of one name). */
  readonly labelGroups?: readonly (readonly number[])[] | undefined;
  /** Issues that carry none of these labels. */
  readonly withoutLabelIds?: readonly number[] | undefined;
  /** Issues without any label. */
  readonly noLabels?: boolean | undefined;
  /** Issues that carry a label with one of these names (any repository or organization). */
  readonly anyLabelNames?: readonly string[] | undefined;
  /** Issues in one of these milestones. */
  readonly milestoneIds?: readonly number[] | undefined;
  /** Issues in no milestone. */
  readonly noMilestone?: boolean | undefined;
  /** Issues in a milestone with one of these names, in any case. */
  readonly milestoneNames?: readonly string[] | undefined;
  /** Words of the title, body or a comment (each a prefix), or `#n`/`n` for issue number n. */
  readonly keyword?: string | undefined;
  readonly updatedSince?: Date | undefined;
  readonly updatedBefore?: Date | undefined;
  readonly posterId?: number | undefined;
  readonly assigneeId?: number | undefined;
  readonly mentionedId?: number | undefined;
  /**
   * Pull requests of others whose latest word from this user (or one of their teams) is a review
   * request: not yet approved or rejected since (Forgejo's applyReviewRequestedCondition).
   */
  readonly reviewRequestedId?: number | undefined;
  /** Pull requests of others this user reviewed or commented on (Forgejo's applyReviewedCondition). */
  readonly reviewedById?: number | undefined;
}

type IssueQuery<O> = SelectQueryBuilder<Database, "issue", O>;

/**
 * The words of a search as a PostgreSQL text query: each word a prefix (`crash` finds
 * "crashes"), all of them required. Only letters, digits and underscores pass, so no input can
 * be a syntax error; undefined when nothing is left.
 */
export function keywordQuery(keyword: string): string | undefined {
  const words = keyword.toLowerCase().match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return undefined;
  return words
    .slice(0, 16)
    .map((word) => `${word.slice(0, 64)}:*`)
    .join(" & ");
}

/** The issues a keyword's words match, found beforehand: a PostgreSQL array literal of ids. */
type KeywordMatches = string;

function applyFilter<O>(query: IssueQuery<O>, filter: IssueFilter, matches?: KeywordMatches): IssueQuery<O> {
  let q = query;
  if (filter.repoIds)
    q = q.where("issue.repoId", "in", filter.repoIds.length > 0 ? [...filter.repoIds] : [0]);
  if (filter.visibleTo) {
    const { viewer, ownerId } = filter.visibleTo;
    // Issues only where the viewer reads the issues unit, pull requests where it reads the pull
    // requests unit: what a repository's own list would show (404 otherwise).
    q = q.where(issueReadableBy(viewer, filter.isPull));
    if (ownerId !== undefined) {
      q = q.where("issue.repoId", "in", (eb: ExpressionBuilder<Database, "issue">) =>
        eb.selectFrom("repository").select("repository.id").where("repository.ownerId", "=", ownerId),
      );
    }
  }
  if (filter.state !== "all") q = q.where("issue.isClosed", "=", filter.state === "closed");
  if (filter.isPull !== undefined) q = q.where("issue.isPull", "=", filter.isPull);
  for (const group of filter.labelGroups ?? []) {
    if (group.length === 0) continue;
    const ids = [...new Set(group)];
    q = q.where("issue.id", "in", (eb) =>
      eb.selectFrom("issueLabel").select("issueLabel.issueId").where("issueLabel.labelId", "in", ids),
    );
  }
  if (filter.withoutLabelIds && filter.withoutLabelIds.length > 0) {
    const ids = [...new Set(filter.withoutLabelIds)];
    q = q.where("issue.id", "not in", (eb) =>
      eb.selectFrom("issueLabel").select("issueLabel.issueId").where("issueLabel.labelId", "in", ids),
    );
  }
  if (filter.noLabels) {
    q = q.where("issue.id", "not in", (eb) => eb.selectFrom("issueLabel").select("issueLabel.issueId"));
  }
  if (filter.anyLabelNames && filter.anyLabelNames.length > 0) {
    const names = [...filter.anyLabelNames];
    q = q.where("issue.id", "in", (eb) =>
      eb
        .selectFrom("issueLabel")
        .innerJoin("label", "label.id", "issueLabel.labelId")
        .select("issueLabel.issueId")
        .where("label.name", "in", names),
    );
  }
  if (filter.milestoneIds && filter.milestoneIds.length > 0) {
    q = q.where("issue.milestoneId", "in", [...filter.milestoneIds]);
  }
  if (filter.noMilestone) q = q.where("issue.milestoneId", "is", null);
  if (filter.milestoneNames && filter.milestoneNames.length > 0) {
    const lowered = filter.milestoneNames.map((name) => name.toLowerCase());
    q = q.where("issue.milestoneId", "in", (eb) =>
      eb
        .selectFrom("milestone")
        .select("milestone.id")
        .where(sql<string>`lower(milestone.name)`, "in", lowered),
    );
  }
  if (filter.keyword !== undefined) q = applyKeyword(q, filter, matches);
  if (filter.updatedSince) q = q.where("issue.updatedAt", ">=", filter.updatedSince);
  if (filter.updatedBefore) q = q.where("issue.updatedAt", "<=", filter.updatedBefore);
  if (filter.posterId !== undefined) q = q.where("issue.posterId", "=", filter.posterId);
  if (filter.assigneeId !== undefined) {
    const assignee = filter.assigneeId;
    q = q.where("issue.id", "in", (eb) =>
      eb
        .selectFrom("issueAssignees")
        .select("issueAssignees.issueId")
        .where("issueAssignees.assigneeId", "=", assignee),
    );
  }
  if (filter.mentionedId !== undefined) {
    const mentioned = filter.mentionedId;
    q = q.where("issue.id", "in", (eb) =>
      eb
        .selectFrom("issueUser")
        .select("issueUser.issueId")
        .where("issueUser.userId", "=", mentioned)
        .where("issueUser.isMentioned", "=", true),
    );
  }
  if (filter.reviewRequestedId !== undefined) {
    const user = filter.reviewRequestedId;
    q = q.where("issue.posterId", "<>", user).where("issue.id", "in", (eb) =>
      eb
        .selectFrom("review")
        .select("review.issueId")
        .where("review.type", "=", ReviewType.request)
        .where((r) =>
          r.or([
            r("review.reviewerId", "=", user),
            r(
              "review.reviewerTeamId",
              "in",
              r.selectFrom("teamUser").select("teamUser.teamId").where("teamUser.userId", "=", user),
            ),
          ]),
        )
        // The request must be the last word of its reviewer on that pull request.
        .where("review.id", "in", (m) =>
          m
            .selectFrom("review as r")
            .select((r) => r.fn.max("r.id").as("id"))
            .where("r.type", "in", [ReviewType.approve, ReviewType.requestChanges, ReviewType.request])
            .groupBy(["r.issueId", "r.reviewerId", "r.reviewerTeamId"]),
        ),
    );
  }
  if (filter.reviewedById !== undefined) {
    const user = filter.reviewedById;
    q = q.where("issue.posterId", "<>", user).where((eb) =>
      eb.or([
        eb("issue.id", "in", (r) =>
          r
            .selectFrom("review")
            .select("review.issueId")
            .where("review.type", "<>", ReviewType.request)
            .where((w) =>
              w.or([
                w("review.reviewerId", "=", user),
                w(
                  "review.reviewerTeamId",
                  "in",
                  w.selectFrom("teamUser").select("teamUser.teamId").where("teamUser.userId", "=", user),
                ),
              ]),
            ),
        ),
        eb("issue.id", "in", (c) =>
          c
            .selectFrom("comment")
            .select("comment.issueId")
            .where("comment.posterId", "=", user)
            .where("comment.type", "in", [CommentType.comment, CommentType.code, CommentType.review]),
        ),
      ]),
    );
  }
  return q;
}

/**
 * Words found through the full-text indexes of issues and of comments, or the issue number when
 * the keyword is one. The matching issues are found first and then fetched by primary key
 * (`= any(…)`), so no repository's issues are scanned; {@link keywordMatches} looks them up once
 * for both the page and the total. The lookup in issues
 * carries the other filters too: with a label, the planner starts from the label's few issues and
 * checks their words, instead of listing every issue a common word is in.
 */
function applyKeyword<O>(query: IssueQuery<O>, filter: IssueFilter, matches?: KeywordMatches): IssueQuery<O> {
  const text = keywordQuery(filter.keyword ?? "");
  const number = /^[#!]?(\d{1,15})$/.exec((filter.keyword ?? "").trim())?.[1];
  if (!text && number === undefined) return query;
  return query.where((eb) => {
    const either = [];
    if (text) either.push(sql<boolean>`issue.id = any(${matches ?? "{}"}::bigint[])`);
    if (number !== undefined) either.push(eb("issue.index", "=", Number(number)));
    return eb.or(either);
  });
}

/**
 * The most issues a keyword search looks at: the newest this many whose words (or whose comments'
 * words) match, among those the rest of the filter selects. A word common to more issues than
 * that finds only the newest of them, and the total says as much as that.
 */
export const MAX_KEYWORD_MATCHES = 10_000;

/**
 * The ids of the newest {@link MAX_KEYWORD_MATCHES} issues whose words, or whose comments' words,
 * match, each side restricted by the filter's other conditions on the issue (the repositories,
 * what the viewer may read), so that nothing the caller may not see is collected.
 */
function matchingIds(db: Db, filter: IssueFilter, text: string) {
  const { keyword: _keyword, ...others } = filter;
  const tsquery = sql`to_tsquery('simple', ${text})`;
  const inIssues = applyFilter(
    db.selectFrom("issue").select("issue.id").where(sql<boolean>`issue.search @@ ${tsquery}`),
    others,
  );
  const inComments = applyFilter(
    db
      .selectFrom("issue")
      .select("issue.id")
      .where("issue.id", "in", (eb) =>
        eb.selectFrom("comment").select("comment.issueId").where(sql<boolean>`comment.search @@ ${tsquery}`),
      ),
    others,
  );
  return sql<{
    id: string | number;
  }>`select id from (${inIssues} union ${inComments}) as matches order by id desc limit ${MAX_KEYWORD_MATCHES}`;
}

/**
 * Looks up a keyword's matches once (undefined when the filter has no words to look up), so that
 * a page and its total do not each search the full-text indexes.
 */
export async function keywordMatches(db: Db, filter: IssueFilter): Promise<KeywordMatches | undefined> {
  const text = filter.keyword === undefined ? undefined : keywordQuery(filter.keyword);
  if (!text) return undefined;
  const result = await matchingIds(db, filter, text).execute(db);
  return `{${result.rows.map((row) => String(row.id)).join(",")}}`;
}

function applySort<O>(query: IssueQuery<O>, sort: IssueSort): IssueQuery<O> {
  const due = sql`coalesce(issue.deadline, (select milestone.deadline from milestone where milestone.id = issue.milestone_id), 'infinity'::timestamptz)`;
  switch (sort) {
    case "oldest":
      return query.orderBy("issue.createdAt", "asc").orderBy("issue.id", "asc");
    case "recentupdate":
      return query
        .orderBy("issue.updatedAt", "desc")
        .orderBy("issue.createdAt", "desc")
        .orderBy("issue.id", "desc");
    case "leastupdate":
      return query
        .orderBy("issue.updatedAt", "asc")
        .orderBy("issue.createdAt", "asc")
        .orderBy("issue.id", "asc");
    case "mostcomment":
      return query
        .orderBy("issue.numComments", "desc")
        .orderBy("issue.createdAt", "desc")
        .orderBy("issue.id", "desc");
    case "leastcomment":
      return query
        .orderBy("issue.numComments", "asc")
        .orderBy("issue.createdAt", "desc")
        .orderBy("issue.id", "desc");
    case "nearduedate":
      return query.orderBy(due, "asc").orderBy("issue.createdAt", "desc").orderBy("issue.id", "desc");
    case "farduedate":
      return query.orderBy(due, "desc").orderBy("issue.createdAt", "desc").orderBy("issue.id", "desc");
    default:
      return query.orderBy("issue.createdAt", "desc").orderBy("issue.id", "desc");
  }
}

/** A page of the issues a filter selects, in `sort` order, with the total across all pages. */
export async function searchIssues(
  db: Db,
  filter: IssueFilter,
  sort: IssueSort,
  page: PageRequest,
): Promise<Paged<Issue>> {
  const matches = await keywordMatches(db, filter);
  const rows = applySort(applyFilter(db.selectFrom("issue").select(ISSUE_COLUMNS), filter, matches), sort);
  const count =
    countedByRepository(db, filter) ??
    applyFilter(
      db.selectFrom("issue").select((eb) => eb.fn.countAll().as("count")),
      filter,
      matches,
    );
  return paged(rows, count, page);
}

/**
 * The total of a plain list of one repository's issues or pull requests (by state only) from the
 * repository's counters, which every change recounts in its transaction: counting 100,000 open
 * issues row by row is what a list must never do. Undefined for any other filter.
 */
function countedByRepository(db: Db, filter: IssueFilter) {
  const { repoIds, state, isPull, ...rest } = filter;
  const others = Object.values(rest).some((value) =>
    Array.isArray(value) ? value.length > 0 : value !== undefined,
  );
  if (others || repoIds?.length !== 1) return undefined;
  const [all, closed] =
    isPull === undefined
      ? [sql`num_issues + num_pulls`, sql`num_closed_issues + num_closed_pulls`]
      : isPull
        ? [sql`num_pulls`, sql`num_closed_pulls`]
        : [sql`num_issues`, sql`num_closed_issues`];
  const total =
    state === "all"
      ? sql<number>`${all}`
      : state === "closed"
        ? sql<number>`${closed}`
        : sql<number>`${all} - (${closed})`;
  return db
    .selectFrom("repository")
    .select(total.as("count"))
    .where("id", "=", repoIds[0] as number);
}
