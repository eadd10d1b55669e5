import type { Repository } from "@kiln/domain";
import { Icon } from "../components/icon.js";
import type { IconName } from "../static/icons.js";
import { accountPath, repoPath } from "../urls.js";
import { useHref } from "./frame.js";

/** The tabs of a repository's header, Forgejo's order. */
export type RepoTab = "code" | "issues" | "pulls" | "releases" | "wiki";

/** What the repository header shows: the repository, the tab open, and the tabs the viewer may open with their counts. */
export interface RepoHeaderProps {
  readonly repo: Repository;
  readonly active: RepoTab;
  /** The tabs to show (units the viewer may read), each with an optional count. */
  readonly tabs: readonly { readonly tab: RepoTab; readonly count?: number }[];
}

const TABS: Readonly<Record<RepoTab, { label: string; icon: IconName; suffix: string }>> = {
  code: { label: "Code", icon: "code", suffix: "" },
  issues: { label: "Issues", icon: "issue-opened", suffix: "/issues" },
  pulls: { label: "Pull requests", icon: "git-pull-request", suffix: "/pulls" },
  releases: { label: "Releases", icon: "tag", suffix: "/releases" },
  wiki: { label: "Wiki", icon: "book", suffix: "/wiki" },
};

function Badges(props: { repo: Repository }) {
  const { repo } = props;
  const badges = [
    repo.isPrivate ? "Private" : null,
    repo.isArchived ? "Archived" : null,
    repo.isMirror ? "Mirror" : null,
    repo.isTemplate ? "Template" : null,
  ].filter((b): b is string => b !== null);
  return (
    <>
      {badges.map((b) => (
        <span class="badge">{b}</span>
      ))}
    </>
  );
}

/**
 * The header of every repository page: owner / name with its badges, the watch, star and fork
 * counts, and the tabs (Code, Issues, Pull requests, Releases, Wiki) with their counts.
 */
export function RepoHeader(props: RepoHeaderProps) {
  const href = useHref();
  const { repo } = props;
  const base = repoPath(repo.ownerName, repo.name);
  return (
    <div class="repo-header">
      <div class="repo-title-row">
        <h1 class="repo-title">
          <Icon
            name={repo.isPrivate ? "lock" : repo.isFork ? "repo-forked" : repo.isMirror ? "mirror" : "repo"}
          />
          <a href={href(accountPath(repo.ownerName))}>{repo.ownerName}</a>
          <span class="repo-slash">/</span>
          <a href={href(base)}>
            <strong>{repo.name}</strong>
          </a>
          <Badges repo={repo} />
        </h1>
        <ul class="repo-counts" aria-label="Repository counts">
          <li>
            <Icon name="eye" /> {repo.numWatches} <span class="count-label">watching</span>
          </li>
          <li>
            <Icon name="star" /> {repo.numStars} <span class="count-label">stars</span>
          </li>
          <li>
            <Icon name="repo-forked" /> {repo.numForks ?? 0} <span class="count-label">forks</span>
          </li>
        </ul>
      </div>
      <nav class="tabs" aria-label="Repository">
        {props.tabs.map(({ tab, count }) => {
          const t = TABS[tab];
          return (
            <a href={href(`${base}${t.suffix}`)} aria-current={tab === props.active ? "page" : undefined}>
              <Icon name={t.icon} /> {t.label}
              {count !== undefined ? <span class="counter">{count}</span> : null}
            </a>
          );
        })}
      </nav>
    </div>
  );
}
