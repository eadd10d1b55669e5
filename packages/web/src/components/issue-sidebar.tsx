import type { User } from "@kiln/domain";
import type { IssueView } from "@kiln/service";
import { useHref } from "../layout/frame.js";
import { accountPath, withQuery } from "../urls.js";
import { Avatar } from "./avatar.js";
import { LabelBadge } from "./label-badge.js";

function People(props: { users: readonly User[]; empty: string }) {
  const href = useHref();
  if (props.users.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <ul class="people">
      {props.users.map((u) => (
        <li>
          <Avatar user={u} /> <a href={href(accountPath(u.name))}>{u.name}</a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The side column of an issue or pull request: labels and milestone (each a link to the list
 * filtered by it), assignees, due date and the participants.
 */
export function IssueSidebar(props: { view: IssueView; listPath: string; participants: readonly User[] }) {
  const href = useHref();
  const { labels, milestone, assignees, issue } = props.view;
  return (
    <aside class="column-side issue-sidebar" aria-label="Details">
      <section aria-labelledby="side-labels">
        <h2 id="side-labels">Labels</h2>
        {labels.length === 0 ? (
          <p class="muted">None yet</p>
        ) : (
          <p class="label-list">
            {labels.map((l) => (
              <LabelBadge label={l} href={href(withQuery(props.listPath, { labels: l.id, state: "all" }))} />
            ))}
          </p>
        )}
      </section>
      <section aria-labelledby="side-milestone">
        <h2 id="side-milestone">Milestone</h2>
        {milestone ? (
          <p>
            <a href={href(withQuery(props.listPath, { milestone: milestone.id, state: "all" }))}>
              {milestone.name}
            </a>
          </p>
        ) : (
          <p class="muted">No milestone</p>
        )}
      </section>
      <section aria-labelledby="side-assignees">
        <h2 id="side-assignees">Assignees</h2>
        <People users={assignees} empty="No one assigned" />
      </section>
      {issue.deadline ? (
        <section aria-labelledby="side-due">
          <h2 id="side-due">Due date</h2>
          <p>
            <time datetime={issue.deadline.toISOString()}>{issue.deadline.toISOString().slice(0, 10)}</time>
          </p>
        </section>
      ) : null}
      <section aria-labelledby="side-participants">
        <h2 id="side-participants">{`${props.participants.length} participant${props.participants.length === 1 ? "" : "s"}`}</h2>
        <People users={props.participants} empty="No participants" />
      </section>
    </aside>
  );
}
