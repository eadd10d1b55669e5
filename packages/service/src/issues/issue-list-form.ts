import type { IssueSort, Paged, Repository, User } from "@kiln/domain";
import type { IssueFilter } from "@kiln/storage";
import { issueSort, stateOf } from "./issue-filters.js";

/**
 * The filters of a repository's issue or pull request list page, as Forgejo's web list reads its
 * query string (routers/web/repo/issue.go `issues`): labels (a negative id excludes its label,
 * `0` first asks for issues without labels), milestone (`-1`: in no milestone), assignee and
 * poster by id, `type` for the signed-in user's own view (assigned, created_by, mentioned), `state`, `q`
 * and `sort`. Values are the query's text; anything unreadable is no filter.
 */
export interface IssueListForm {
  readonly state?: string | undefined;
  readonly labels?: string | undefined;
  readonly milestone?: string | undefined;
  readonly assignee?: string | undefined;
  readonly poster?: string | undefined;
  readonly q?: string | undefined;
  readonly type?: string | undefined;
  readonly sort?: string | undefined;
}

/** The `type` views of Forgejo's web list: the signed-in user's own, the last two for reviews. */
export const ISSUE_LIST_TYPES = [
  "all",
  "assigned",
  "created_by",
  "mentioned",
  "review_requested",
  "reviewed_by",
] as const;
export type IssueListType = (typeof ISSUE_LIST_TYPES)[number];

/** The filters as understood: what the page shows as chosen, and keeps in its links. */
export interface IssueListChoice {
  /** Undefined when the query gave no state (Forgejo then shows all if nothing is open). */
  readonly state: "open" | "closed" | "all" | undefined;
  /** Labels asked for (positive) and left out (negative), as the query gave them. */
  readonly labelIds: readonly number[];
  /** Issues without any label (`labels=0`). */
  readonly noLabels: boolean;
  /** A milestone, or {@link NO_MILESTONE} for issues in none. */
  readonly milestoneId: number | undefined;
  readonly assigneeId: number | undefined;
  readonly posterId: number | undefined;
  readonly q: string;
  readonly type: IssueListType;
  readonly sort: IssueSort;
}

/** A page of the list with the open and closed counts of the same filters (the list's tabs). */
export interface IssueListResult<T> extends Paged<T> {
  readonly open: number;
  readonly closed: number;
  /** The state shown (the query's, or all when it gave none and only closed issues match). */
  readonly state: "open" | "closed" | "all";
  readonly choice: IssueListChoice;
}

/** Forgejo's `db.NoConditionID` as a milestone filter: issues in no milestone. */
export const NO_MILESTONE = -1;

/** A non-zero id of the query, negative or not (at most 15 digits), else undefined. */
function signedIdOf(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? "";
  return /^-?\d{1,15}$/.test(trimmed) && Number(trimmed) !== 0 ? Number(trimmed) : undefined;
}

/** A positive id of the query (at most 15 digits), else undefined. */
function idOf(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? "";
  return /^\d{1,15}$/.test(trimmed) && Number(trimmed) > 0 ? Number(trimmed) : undefined;
}

/** Reads the list's query: each value bounded (at most 20 labels, 255 characters of keyword). */
export function readIssueListForm(form: IssueListForm): IssueListChoice {
  const given = (form.labels ?? "").split(",").slice(0, 20);
  // As in Forgejo, a first `0` asks for issues without labels and the rest is not read.
  const noLabels = given[0]?.trim() === "0";
  const labelIds = noLabels
    ? []
    : [...new Set(given.map(signedIdOf).filter((id): id is number => id !== undefined))];
  const type = ISSUE_LIST_TYPES.find((t) => t === form.type) ?? "all";
  return {
    state: form.state === undefined || form.state === "" ? undefined : stateOf(form.state),
    labelIds,
    noLabels,
    milestoneId: form.milestone?.trim() === String(NO_MILESTONE) ? NO_MILESTONE : idOf(form.milestone),
    assigneeId: idOf(form.assignee),
    posterId: idOf(form.poster),
    q: (form.q ?? "").replaceAll("\0", "").trim().slice(0, 255),
    type,
    sort: issueSort(form.sort),
  };
}

/**
 * The storage filter of a choice for one repository and kind (state left to the caller): each
 * label must be carried, the signed-in user's `type` view overrides the assignee or poster, as in
 * Forgejo; an anonymous visitor's `type` is ignored.
 */
export function choiceFilter(
  repo: Repository,
  isPull: boolean,
  choice: IssueListChoice,
  viewer: User | null,
): Omit<IssueFilter, "state"> {
  const mine = viewer ? choice.type : "all";
  return {
    repoIds: [repo.id],
    isPull,
    labelGroups: choice.labelIds.filter((id) => id > 0).map((id) => [id]),
    withoutLabelIds: choice.labelIds.filter((id) => id < 0).map((id) => -id),
    noLabels: choice.noLabels,
    milestoneIds:
      choice.milestoneId !== undefined && choice.milestoneId !== NO_MILESTONE ? [choice.milestoneId] : [],
    noMilestone: choice.milestoneId === NO_MILESTONE,
    keyword: choice.q || undefined,
    posterId: mine === "created_by" ? viewer?.id : choice.posterId,
    assigneeId: mine === "assigned" ? viewer?.id : choice.assigneeId,
    mentionedId: mine === "mentioned" ? viewer?.id : undefined,
    reviewRequestedId: mine === "review_requested" ? viewer?.id : undefined,
    reviewedById: mine === "reviewed_by" ? viewer?.id : undefined,
  };
}
