import type { NotificationThreadRow } from "@kiln/service";
import { notificationStatusOf } from "@kiln/service";
import { Icon } from "../components/icon.js";
import { Pagination } from "../components/pagination.js";
import { TabNav } from "../components/tab-nav.js";
import { TimeAgo } from "../components/time-ago.js";
import { useHref } from "../layout/frame.js";
import { render } from "../layout/render.js";
import { page } from "../page-route.js";
import { pageOf } from "../paging.js";
import { repoPath } from "../urls.js";

type RepoNames = ReadonlyMap<number, { repo: { ownerName: string; name: string } }>;

function Thread(props: { row: NotificationThreadRow; repos: RepoNames }) {
  const href = useHref();
  const { row } = props;
  const repo = props.repos.get(row.repoId)?.repo;
  if (!repo) return null;
  const base = repoPath(repo.ownerName, repo.name);
  const unread = row.status === notificationStatusOf("unread");
  const pinned = row.status === notificationStatusOf("pinned");
  const target =
    row.issueIndex !== null
      ? `${base}/${row.isPull ? "pulls" : "issues"}/${row.issueIndex}`
      : row.commitId
        ? `${base}/commit/${row.commitId}`
        : base;
  const title =
    row.issueTitle ?? (row.commitId ? row.commitId.slice(0, 10) : `${repo.ownerName}/${repo.name}`);
  return (
    <li class={unread ? "list-item unread" : "list-item"}>
      <div class="list-item-main">
        <h3 class="list-item-title">
          <Icon name={row.isPull ? "git-pull-request" : row.issueIndex !== null ? "issue-opened" : "repo"} />
          <a href={href(target)}>{title}</a>
          {row.issueIndex !== null ? <span class="muted">#{row.issueIndex}</span> : null}
          {unread ? <span class="badge badge-accent">Unread</span> : null}
          {pinned ? <span class="badge">Pinned</span> : null}
        </h3>
        <p class="list-item-text muted">
          <a href={href(base)}>{`${repo.ownerName}/${repo.name}`}</a> · <TimeAgo date={row.updatedAt} />
        </p>
      </div>
    </li>
  );
}

/**
 * Forgejo's `/notifications` (read-only for now): the signed-in user's threads, unread and pinned
 * by default or the read ones (`?type=read`), as `/notifications` answers them through the API
 * (threads of repositories the user may no longer see are left out).
 */
export const notificationsPage = page({
  method: "get",
  path: "/notifications",
  access: "signed-in",
  variants: ["type=read", "page=2"],
  async handler(c, fields) {
    const services = c.get("services");
    const actor = c.get("actor");
    const read = fields("type") === "read";
    const paging = pageOf(fields);
    const found = await services.notifications.list(
      actor,
      { statuses: read ? ["read"] : ["unread", "pinned"] },
      paging,
    );
    const repos = await services.notifications.repositories(actor, found.items);
    return render(
      c,
      { title: "Notifications" },
      <>
        <h1>Notifications</h1>
        <TabNav
          label="Notifications"
          tabs={[
            { label: "Unread", path: "/notifications", icon: "bell", current: !read },
            { label: "Read", path: "/notifications?type=read", icon: "check", current: read },
          ]}
        />
        {found.items.length === 0 ? (
          <p class="empty">{read ? "No read notifications." : "You are all caught up."}</p>
        ) : (
          <ul class="list">
            {found.items.map((row) => (
              <Thread row={row} repos={repos} />
            ))}
          </ul>
        )}
        <Pagination
          path="/notifications"
          query={{ type: read ? "read" : undefined }}
          page={paging}
          total={found.total}
        />
      </>,
    );
  },
});
