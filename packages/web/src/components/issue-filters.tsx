import type { Label, Milestone, User } from "@kiln/domain";
import { type IssueListChoice, NO_MILESTONE } from "@kiln/service";
import { useFrame, useHref } from "../layout/frame.js";
import { withQuery } from "../urls.js";
import { Icon } from "./icon.js";

/** The orders the list offers (Forgejo's sort menu). */
const SORT_LABELS: readonly [string, string][] = [
  ["latest", "Newest"],
  ["oldest", "Oldest"],
  ["recentupdate", "Recently updated"],
  ["leastupdate", "Least recently updated"],
  ["mostcomment", "Most commented"],
  ["leastcomment", "Least commented"],
  ["nearduedate", "Nearest due date"],
  ["farduedate", "Farthest due date"],
];

const TYPE_LABELS: readonly [string, string][] = [
  ["all", "All"],
  ["assigned", "Assigned to you"],
  ["created_by", "Created by you"],
  ["mentioned", "Mentioning you"],
];

/** The views a pull request list adds (Forgejo offers them there only; an issue list still reads them). */
const REVIEW_TYPE_LABELS: readonly [string, string][] = [
  ["review_requested", "Review requested"],
  ["reviewed_by", "Reviewed by you"],
];

/** The query a list's links keep: the choice as Forgejo's query parameters, defaults left out. */
export function choiceQuery(choice: IssueListChoice): Record<string, string | undefined> {
  return {
    q: choice.q || undefined,
    type: choice.type === "all" ? undefined : choice.type,
    sort: choice.sort === "latest" ? undefined : choice.sort,
    labels: choice.noLabels ? "0" : choice.labelIds.length > 0 ? choice.labelIds.join(",") : undefined,
    milestone: choice.milestoneId?.toString(),
    assignee: choice.assigneeId?.toString(),
    poster: choice.posterId?.toString(),
  };
}

function Select(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <span class="filter-field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        {props.options.map(([value, text]) => (
          <option value={value} selected={value === props.value}>
            {text}
          </option>
        ))}
      </select>
    </span>
  );
}

/**
 * The filters of an issue or pull request list as one GET form (it works without a script and
 * gives a link that can be shared): keyword, label, milestone, assignee, the signed-in user's own
 * views and the order. The state stays as chosen by the tabs; a poster filter is kept hidden.
 */
export function IssueFilters(props: {
  path: string;
  choice: IssueListChoice;
  state: string;
  labels: readonly Label[];
  milestones: readonly Milestone[];
  assignees: readonly User[] | null;
  /** A pull request list: it offers the review views. */
  pulls?: boolean;
}) {
  const href = useHref();
  const { user } = useFrame();
  const { choice } = props;
  const any: readonly [string, string] = ["", "Any"];
  const chosenLabels = choice.noLabels ? "0" : choice.labelIds.join(",");
  const labelOptions = props.labels.map((l) => [String(l.id), l.name] as const);
  // A choice the menu cannot make (several labels, or labels left out) stays offered as it came.
  if (choice.labelIds.length > 1 || choice.labelIds.some((id) => id < 0)) {
    const left = choice.labelIds.filter((id) => id < 0).length;
    const asked = choice.labelIds.length - left;
    const words = [
      asked > 0 ? `${asked} label${asked === 1 ? "" : "s"}` : "",
      left > 0 ? `${left} left out` : "",
    ];
    labelOptions.unshift([chosenLabels, words.filter(Boolean).join(", ")]);
  }
  labelOptions.unshift(["0", "No label"]);
  return (
    <search>
      <form class="issue-filters" method="get" action={href(props.path)}>
        <input type="hidden" name="state" value={props.state} />
        {choice.posterId !== undefined ? (
          <input type="hidden" name="poster" value={String(choice.posterId)} />
        ) : null}
        <span class="filter-field filter-q">
          <label for="issue-q">Search</label>
          <input id="issue-q" type="search" name="q" value={choice.q} maxlength={255} />
        </span>
        <Select
          id="issue-labels"
          name="labels"
          label="Label"
          value={chosenLabels}
          options={[any, ...labelOptions]}
        />
        <Select
          id="issue-milestone"
          name="milestone"
          label="Milestone"
          value={choice.milestoneId?.toString() ?? ""}
          options={[
            any,
            [String(NO_MILESTONE), "No milestone"],
            ...props.milestones.map((m) => [String(m.id), m.name] as const),
          ]}
        />
        {props.assignees ? (
          <Select
            id="issue-assignee"
            name="assignee"
            label="Assignee"
            value={choice.assigneeId?.toString() ?? ""}
            options={[any, ...props.assignees.map((u) => [String(u.id), u.name] as const)]}
          />
        ) : null}
        {user ? (
          <Select
            id="issue-type"
            name="type"
            label="Show"
            value={choice.type}
            options={props.pulls ? [...TYPE_LABELS, ...REVIEW_TYPE_LABELS] : TYPE_LABELS}
          />
        ) : null}
        <Select id="issue-sort" name="sort" label="Sort" value={choice.sort} options={SORT_LABELS} />
        <button type="submit" class="button">
          <Icon name="search" /> Filter
        </button>
        {Object.values(choiceQuery(choice)).some((v) => v !== undefined) ? (
          <a href={href(withQuery(props.path, { state: props.state }))}>
            <Icon name="x" /> Clear filters
          </a>
        ) : null}
      </form>
    </search>
  );
}
