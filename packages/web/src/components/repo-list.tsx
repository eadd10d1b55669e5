import type { Repository } from "@kiln/domain";
import { useHref } from "../layout/frame.js";
import { accountPath, repoPath } from "../urls.js";
import { Icon } from "./icon.js";
import { TimeAgo } from "./time-ago.js";

function RepoItem(props: { repo: Repository; showOwner: boolean }) {
  const href = useHref();
  const { repo } = props;
  return (
    <li class="list-item">
      <div class="list-item-main">
        <h3 class="list-item-title">
          <Icon
            name={repo.isPrivate ? "lock" : repo.isFork ? "repo-forked" : repo.isMirror ? "mirror" : "repo"}
          />
          {props.showOwner ? (
            <>
              <a href={href(accountPath(repo.ownerName))}>{repo.ownerName}</a>
              <span class="repo-slash">/</span>
            </>
          ) : null}
          <a href={href(repoPath(repo.ownerName, repo.name))}>
            <strong>{repo.name}</strong>
          </a>
          {repo.isPrivate ? <span class="badge">Private</span> : null}
          {repo.isArchived ? <span class="badge">Archived</span> : null}
          {repo.isTemplate ? <span class="badge">Template</span> : null}
        </h3>
        {repo.description ? <p class="list-item-text">{repo.description}</p> : null}
        {repo.topics.length > 0 ? (
          <ul class="topics" aria-label="Topics">
            {repo.topics.map((t) => (
              <li class="topic">{t}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div class="list-item-meta">
        <span title="Stars">
          <Icon name="star" /> {repo.numStars}
          <span class="visually-hidden"> stars</span>
        </span>
        <span title="Forks">
          <Icon name="repo-forked" /> {repo.numForks ?? 0}
          <span class="visually-hidden"> forks</span>
        </span>
        <span>
          Updated <TimeAgo date={repo.updatedAt} />
        </span>
      </div>
    </li>
  );
}

/** A list of repositories, or a line saying there are none. */
export function RepoList(props: { repos: readonly Repository[]; showOwner?: boolean; empty?: string }) {
  if (props.repos.length === 0) return <p class="empty">{props.empty ?? "No repositories."}</p>;
  return (
    <ul class="list">
      {props.repos.map((repo) => (
        <RepoItem repo={repo} showOwner={props.showOwner ?? true} />
      ))}
    </ul>
  );
}
