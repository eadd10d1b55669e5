import type { IssueView } from "@kiln/service";
import { useHref } from "../layout/frame.js";
import { accountPath, repoPath, withQuery } from "../urls.js";
import { Icon } from "./icon.js";
import { LabelBadge } from "./label-badge.js";
import { TimeAgo } from "./time-ago.js";

/** The link of an issue or pull request page (Forgejo's `issue.Link()`). */
export function issueLink(owner: string, repo: string, index: number, isPull: boolean): string {
  return `${repoPath(owner, repo)}/${isPull ? "pulls" : "issues"}/${index}`;
}

/**
 * One row of an issue or pull request list: state icon, title, number, labels (each a link that
 * filters the list by it), who opened it and when, its milestone and its comment count.
 */
export function IssueRow(props: { view: IssueView; listPath: string }) {
  const href = useHref();
  const { issue, repo, poster, labels, milestone } = props.view;
  const noun = issue.isPull ? "Pull request" : "Issue";
  const state = issue.isClosed ? "closed" : "open";
  return (
    <li class="list-item issue-row">
      <Icon
        name={issue.isPull ? "git-pull-request" : issue.isClosed ? "issue-closed" : "issue-opened"}
        class={`state-${state}`}
      />
      <div class="list-item-main">
        <h3 class="list-item-title">
          <span class="visually-hidden">{`${noun} ${state}:`}</span>
          <a href={href(issueLink(repo.ownerName, repo.name, issue.index, issue.isPull))}>{issue.title}</a>
          {labels.map((label) => (
            <LabelBadge label={label} href={href(withQuery(props.listPath, { labels: label.id }))} />
          ))}
        </h3>
        <p class="list-item-meta">
          <span>
            #{issue.index} {issue.isClosed ? "closed" : "opened"}{" "}
            <TimeAgo date={issue.isClosed && issue.closedAt ? issue.closedAt : issue.createdAt} /> by{" "}
            {poster ? <a href={href(accountPath(poster.name))}>{poster.name}</a> : "Ghost"}
          </span>
          {milestone ? (
            <a class="meta" href={href(withQuery(props.listPath, { milestone: milestone.id }))}>
              <Icon name="milestone" /> {milestone.name}
            </a>
          ) : null}
          {issue.numComments > 0 ? (
            <span class="meta">
              <Icon name="comment" /> {issue.numComments}
              <span class="visually-hidden"> comments</span>
            </span>
          ) : null}
        </p>
      </div>
    </li>
  );
}
