import { NotFoundError } from "@kiln/domain";
import type { RepoAccess, Services } from "@kiln/service";
import { Icon } from "../../components/icon.js";
import { Pagination } from "../../components/pagination.js";
import { TabNav } from "../../components/tab-nav.js";
import { TimeAgo } from "../../components/time-ago.js";
import type { WebContext } from "../../env.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { pageOf } from "../../paging.js";
import { repoPath, withQuery } from "../../urls.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";

/**
 * The repository for a page of its issue tracker (labels, milestones): Forgejo's
 * `reqRepoIssuesOrPullsReader`, 404 when the viewer may read neither issues nor pull requests.
 */
export async function trackerAccess(c: WebContext): Promise<RepoAccess> {
  const services: Services = c.get("services");
  const access = await pageRepo(c);
  const kinds = services.issues.readableKinds(access.permission, access.viewer);
  if (!kinds.issues && !kinds.pulls) throw new NotFoundError();
  return access;
}

type MilestoneRow = Awaited<ReturnType<Services["milestones"]["list"]>>["items"][number];

function Milestone(props: { m: MilestoneRow; issuesPath: string }) {
  const href = useHref();
  const { m } = props;
  const closed = m.numClosedIssues;
  const open = m.numIssues - closed;
  const percent = m.numIssues === 0 ? 0 : Math.floor((closed / m.numIssues) * 100);
  const overdue = !m.isClosed && m.deadline !== null && m.deadline.getTime() < Date.now();
  return (
    <li class="list-item milestone">
      <div class="list-item-main">
        <h3 class="list-item-title">
          <Icon name="milestone" />
          <a href={href(withQuery(props.issuesPath, { milestone: m.id, state: "all" }))}>{m.name}</a>
        </h3>
        <progress
          class="milestone-progress"
          max={100}
          value={percent}
          aria-label={`${m.name}: ${percent}% complete`}
        >
          {`${percent}%`}
        </progress>
        <p class="list-item-meta">
          <span>{`${percent}% complete`}</span>
          <a href={href(withQuery(props.issuesPath, { milestone: m.id, state: "open" }))}>{`${open} open`}</a>
          <a
            href={href(withQuery(props.issuesPath, { milestone: m.id, state: "closed" }))}
          >{`${closed} closed`}</a>
          {m.isClosed && m.closedAt ? (
            <span>
              Closed <TimeAgo date={m.closedAt} />
            </span>
          ) : m.deadline ? (
            <span class={overdue ? "overdue" : undefined}>
              <Icon name="clock" /> {overdue ? "Past due by " : "Due by "}
              <time datetime={m.deadline.toISOString()}>{m.deadline.toISOString().slice(0, 10)}</time>
            </span>
          ) : (
            <span>No due date</span>
          )}
        </p>
        {m.content ? <p class="list-item-text">{m.content}</p> : null}
      </div>
    </li>
  );
}

/** Forgejo's `/{owner}/{repo}/milestones`: open or closed milestones with their progress and due dates. */
export const milestonesPage = page({
  method: "get",
  path: "/:username/:reponame/milestones",
  access: "public",
  variants: ["state=closed", "page=2"],
  async handler(c, fields) {
    const access = await trackerAccess(c);
    const { repo } = access;
    const closed = fields("state") === "closed";
    const paging = pageOf(fields);
    const services = c.get("services");
    const [list, openAll, closedAll] = await Promise.all([
      services.milestones.list(repo, { state: closed ? "closed" : "open" }, paging),
      services.milestones.list(repo, { state: "open" }, { page: 1, limit: 1 }),
      services.milestones.list(repo, { state: "closed" }, { page: 1, limit: 1 }),
    ]);
    const base = repoPath(repo.ownerName, repo.name);
    const path = `${base}/milestones`;
    const kinds = services.issues.readableKinds(access.permission, access.viewer);
    const issuesPath = `${base}/${kinds.issues ? "issues" : "pulls"}`;
    return render(
      c,
      { title: `Milestones - ${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "issues") },
      <>
        <h2>Milestones</h2>
        <TabNav
          label="State of the milestones"
          tabs={[
            { label: "Open", path, icon: "milestone", count: openAll.total, current: !closed },
            {
              label: "Closed",
              path: `${path}?state=closed`,
              icon: "check",
              count: closedAll.total,
              current: closed,
            },
          ]}
        />
        {list.items.length === 0 ? (
          <p class="empty">{closed ? "No closed milestones." : "No open milestones."}</p>
        ) : (
          <ul class="list" aria-label="Milestones">
            {list.items.map((m) => (
              <Milestone m={m} issuesPath={issuesPath} />
            ))}
          </ul>
        )}
        <Pagination
          path={path}
          query={{ state: closed ? "closed" : undefined }}
          page={paging}
          total={list.total}
        />
      </>,
    );
  },
});
