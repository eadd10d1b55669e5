import type { IssueListForm } from "@kiln/service";
import { choiceQuery, IssueFilters } from "../../components/issue-filters.js";
import { IssueRow } from "../../components/issue-row.js";
import { LabelStyles } from "../../components/label-badge.js";
import { Pagination } from "../../components/pagination.js";
import { TabNav } from "../../components/tab-nav.js";
import type { WebContext } from "../../env.js";
import type { Fields } from "../../forms.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { limitOf, PAGE_SIZE, pageOf } from "../../paging.js";
import { repoPath, withQuery } from "../../urls.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

/** The filters of the query, by Forgejo's names. */
function formOf(fields: Fields): IssueListForm {
  const names = ["state", "labels", "milestone", "assignee", "poster", "q", "type", "sort"] as const;
  return Object.fromEntries(names.map((n) => [n, fields(n)])) as IssueListForm;
}

/**
 * Forgejo's `/{owner}/{repo}/issues` and `/pulls` (routers/web/repo/issue.go `Issues`): the list
 * the issue service answers for the form's filters, the open and closed counts as tabs, paged.
 */
async function issueList(c: WebContext, fields: Fields, isPull: boolean) {
  const services = c.get("services");
  const access = await pageRepo(c);
  const { repo } = access;
  const limit = limitOf(fields);
  const paging = pageOf(fields, limit);
  const found = await services.issues.listPage(access, isPull, formOf(fields), paging);
  const [views, repoLabels, orgLabels, milestones, assignees] = await Promise.all([
    services.issues.views(found.items, [repo]),
    services.labels.list({ repoId: repo.id }, "alphabetically", undefined),
    services.labels.list({ orgId: repo.ownerId }, "alphabetically", undefined),
    services.milestones.list(repo, { state: "all" }, undefined),
    // Who can be assigned is for signed-in readers, as `GET /repos/{o}/{r}/assignees` answers.
    access.viewer ? services.repoPeople.assignees(access) : Promise.resolve(null),
  ]);
  const path = `${repoPath(repo.ownerName, repo.name)}/${isPull ? "pulls" : "issues"}`;
  const query = choiceQuery(found.choice);
  const labels = [...repoLabels.items, ...orgLabels.items];
  const noun = isPull ? "pull requests" : "issues";
  const tabs = (["open", "closed"] as const).map((state) => ({
    label: state === "open" ? "Open" : "Closed",
    path: withQuery(path, { ...query, state }),
    icon: state === "open" ? ("issue-opened" as const) : ("check" as const),
    count: found[state],
    current: found.state === state,
  }));
  return render(
    c,
    {
      title: `${isPull ? "Pull requests" : "Issues"} - ${repo.ownerName}/${repo.name}`,
      repo: repoHeaderOf(access, isPull ? "pulls" : "issues"),
    },
    <>
      <LabelStyles labels={[...labels, ...views.flatMap((v) => v.labels)]} />
      <h2 class="visually-hidden">{isPull ? "Pull requests" : "Issues"}</h2>
      <IssueFilters
        path={path}
        choice={found.choice}
        state={found.state}
        labels={labels}
        milestones={milestones.items}
        assignees={assignees}
        pulls={isPull}
      />
      <TabNav label={`State of the ${noun}`} tabs={tabs} />
      {views.length === 0 ? (
        <p class="empty">{`No ${noun} match.`}</p>
      ) : (
        <ul class="list" aria-label={isPull ? "Pull requests" : "Issues"}>
          {views.map((view) => (
            <IssueRow view={view} listPath={path} />
          ))}
        </ul>
      )}
      <Pagination
        path={path}
        query={{ ...query, state: found.state, limit: limit === PAGE_SIZE ? undefined : String(limit) }}
        page={paging}
        total={found.total}
      />
    </>,
  );
}

/** Forgejo's `/{owner}/{repo}/issues`: the repository's issues, filtered, in tabs by state. */
export const issueListPage = page({
  method: "get",
  path: "/:username/:reponame/issues",
  access: "public",
  variants: [
    "state=closed&sort=oldest",
    "state=all&q=world&labels=1&milestone=1&type=created_by",
    "page=2&limit=5",
  ],
  handler: (c, fields) => issueList(c, fields, false),
});

/** Forgejo's `/{owner}/{repo}/pulls`: the repository's pull requests, filtered, in tabs by state. */
export const pullListPage = page({
  method: "get",
  path: "/:username/:reponame/pulls",
  access: "public",
  variants: ["state=all&sort=recentupdate", "page=2&limit=5"],
  handler: (c, fields) => issueList(c, fields, true),
});
