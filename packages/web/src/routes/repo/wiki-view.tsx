import type { WikiPageMeta } from "@kiln/service";
import { raw } from "hono/html";
import { Icon } from "../../components/icon.js";
import { TimeAgo } from "../../components/time-ago.js";
import { useHref } from "../../layout/frame.js";

/** A commit of the wiki as its pages show it (the author as git recorded it). */
export interface WikiCommitView {
  readonly sha: string;
  readonly authorName: string;
  readonly date: Date;
  readonly subject: string;
}

/** Converts the service's commit to what the pages show. */
export function wikiCommitView(commit: WikiPageMeta["lastCommit"]): WikiCommitView {
  return {
    sha: commit.sha,
    authorName: commit.author.name,
    date: new Date(commit.author.timestamp * 1000),
    subject: commit.message.split("\n")[0] ?? "",
  };
}

/** The wiki's own links: its pages list, on every wiki page. */
export function WikiNav(props: { base: string }) {
  const href = useHref();
  return (
    <nav class="wiki-nav" aria-label="Wiki">
      <a href={href(`${props.base}/wiki/`)}>
        <Icon name="book" /> Home
      </a>
      <a href={href(`${props.base}/wiki/?action=_pages`)}>Pages</a>
    </nav>
  );
}

/** One rendered page: title, last edit, content, and the wiki's sidebar and footer when present. */
export function WikiPageBody(props: {
  base: string;
  title: string;
  webPath: string;
  lastCommit: WikiCommitView;
  commitCount: number;
  contentHtml: string | null;
  sidebarHtml: string | null;
  footerHtml: string | null;
}) {
  const href = useHref();
  const history = href(`${props.base}/wiki/${props.webPath}?action=_revision`);
  return (
    <div class="wiki-page">
      <WikiNav base={props.base} />
      <h2 class="wiki-title">{props.title}</h2>
      <p class="muted">
        {props.lastCommit.authorName} edited this page <TimeAgo date={props.lastCommit.date} /> ·{" "}
        <a href={history}>
          <Icon name="clock" /> {props.commitCount} {props.commitCount === 1 ? "revision" : "revisions"}
        </a>
      </p>
      <div class="columns">
        <div class="column-main">
          {props.contentHtml === null ? (
            <p class="notice">This page is too large to show.</p>
          ) : (
            <div class="markup">{raw(props.contentHtml)}</div>
          )}
        </div>
        {props.sidebarHtml ? (
          <aside class="column-side wiki-sidebar markup" aria-label="Wiki sidebar">
            {raw(props.sidebarHtml)}
          </aside>
        ) : null}
      </div>
      {props.footerHtml ? <div class="wiki-footer markup">{raw(props.footerHtml)}</div> : null}
    </div>
  );
}

/** The wiki's pages with their last edit (Forgejo's `?action=_pages`). */
export function WikiPagesTable(props: {
  base: string;
  pages: readonly { webPath: string; title: string; lastCommit: WikiCommitView }[];
}) {
  const href = useHref();
  return (
    <table class="wiki-table">
      <thead>
        <tr>
          <th scope="col">Page</th>
          <th scope="col">Last edit</th>
        </tr>
      </thead>
      <tbody>
        {props.pages.map((p) => (
          <tr>
            <td>
              <a href={href(`${props.base}/wiki/${p.webPath}`)}>{p.title}</a>
            </td>
            <td>
              {p.lastCommit.authorName} <TimeAgo date={p.lastCommit.date} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A page's revisions, newest first (Forgejo's `?action=_revision`). */
export function WikiRevisions(props: { commits: readonly WikiCommitView[] }) {
  return (
    <table class="wiki-table">
      <thead>
        <tr>
          <th scope="col">Commit</th>
          <th scope="col">Message</th>
          <th scope="col">Author</th>
        </tr>
      </thead>
      <tbody>
        {props.commits.map((commit) => (
          <tr>
            <td>
              <code>{commit.sha.slice(0, 10)}</code>
            </td>
            <td>{commit.subject}</td>
            <td>
              {commit.authorName} <TimeAgo date={commit.date} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
