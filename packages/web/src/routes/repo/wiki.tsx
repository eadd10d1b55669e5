import { isKilnError, NotFoundError } from "@kiln/domain";
import { type RepoAccess, WIKI_REVISIONS_PER_PAGE, webPathFromRequest } from "@kiln/service";
import { Icon } from "../../components/icon.js";
import { Pagination } from "../../components/pagination.js";
import type { WebContext } from "../../env.js";
import type { Fields } from "../../forms.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { pageOf } from "../../paging.js";
import { seeOther } from "../../responses.js";
import { repoPath } from "../../urls.js";
import { pageRepo } from "./page-repo.js";
import { repoHeaderOf } from "./repo-tabs.js";
import { WikiNav, WikiPageBody, WikiPagesTable, WikiRevisions, wikiCommitView } from "./wiki-view.js";

/** The longest page name a request may give (Forgejo's titles are far shorter). */
const MAX_PAGE_NAME = 1024;
/** Pages a page of the pages list shows. */
const PAGES_PER_PAGE = 50;

/** The repository of a wiki page: 404 when the visitor may not see it or read its wiki (the API's rule). */
function wikiAccess(c: WebContext): Promise<RepoAccess> {
  return pageRepo(c, {
    read: "repo.wiki",
    hiddenWithout: "repo.wiki",
  });
}

/** The page's web path as the request names it (raw, still escaped, as Forgejo's PathParamRaw). */
function requestedPage(c: WebContext): string {
  const raw = new URL(c.req.url).pathname.split("/").slice(4).join("/");
  if (raw.length > MAX_PAGE_NAME) throw new NotFoundError("wiki page does not exist");
  return webPathFromRequest(raw);
}

const isNotFound = (err: unknown) => isKilnError(err) && err.kind === "not_found";

/** Renders one page of the wiki (Markdown through the markup service, as the API's renderer). */
async function showPage(c: WebContext, access: RepoAccess, webPath: string): Promise<Response> {
  const services = c.get("services");
  const { repo } = access;
  const view = await services.wikis.page(repo, webPath);
  const markdown = (bytes: Uint8Array | null) =>
    bytes === null
      ? Promise.resolve(null)
      : services.markup.render(c.get("actor"), {
          text: Buffer.from(bytes).toString("utf8"),
          mode: "gfm",
          context: `${repo.ownerName}/${repo.name}`,
          wiki: true,
        });
  const [contentHtml, sidebarHtml, footerHtml] = await Promise.all([
    markdown(view.content),
    markdown(view.sidebar),
    markdown(view.footer),
  ]);
  return render(
    c,
    { title: `${view.title} · Wiki · ${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "wiki") },
    <WikiPageBody
      base={repoPath(repo.ownerName, repo.name)}
      title={view.title}
      webPath={view.webPath}
      lastCommit={wikiCommitView(view.lastCommit)}
      commitCount={view.commitCount}
      contentHtml={contentHtml}
      sidebarHtml={sidebarHtml}
      footerHtml={footerHtml}
    />,
  );
}

/** Forgejo's `?action=_pages` (WikiPages): every page with its last edit, 50 a page. */
async function showPages(c: WebContext, access: RepoAccess, fields: Fields): Promise<Response> {
  const { repo } = access;
  const base = repoPath(repo.ownerName, repo.name);
  const paging = pageOf(fields, PAGES_PER_PAGE);
  const list = await c.get("services").wikis.pages(repo, paging);
  return render(
    c,
    { title: `Pages · Wiki · ${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "wiki") },
    <section aria-labelledby="wiki-pages-title">
      <WikiNav base={base} />
      <h2 id="wiki-pages-title">Pages</h2>
      <WikiPagesTable
        base={base}
        pages={list.items.map((p) => ({ ...p, lastCommit: wikiCommitView(p.lastCommit) }))}
      />
      <Pagination path={`${base}/wiki/`} query={{ action: "_pages" }} page={paging} total={list.total} />
    </section>,
  );
}

/** Forgejo's `?action=_revision` (WikiRevision): a page's commits, 50 a page. */
async function showRevisions(c: WebContext, access: RepoAccess, webPath: string, fields: Fields) {
  const { repo } = access;
  const base = repoPath(repo.ownerName, repo.name);
  const paging = pageOf(fields, WIKI_REVISIONS_PER_PAGE);
  const wikis = c.get("services").wikis;
  const view = await wikis.page(repo, webPath);
  const history = await wikis.revisions(repo, webPath, paging.page);
  return render(
    c,
    {
      title: `History of ${view.title} · Wiki · ${repo.ownerName}/${repo.name}`,
      repo: repoHeaderOf(access, "wiki"),
    },
    <section aria-labelledby="wiki-history-title">
      <WikiNav base={base} />
      <h2 id="wiki-history-title">
        <Icon name="clock" /> History of {view.title}
      </h2>
      <WikiRevisions commits={history.commits.map(wikiCommitView)} />
      <Pagination
        path={`${base}/wiki/${webPath}`}
        query={{ action: "_revision" }}
        page={paging}
        total={history.total}
      />
    </section>,
  );
}

/** An empty wiki: Forgejo's welcome (creating the first page comes with the wiki's forms). */
function showEmpty(c: WebContext, access: RepoAccess): Response | Promise<Response> {
  const { repo } = access;
  return render(
    c,
    { title: `Wiki · ${repo.ownerName}/${repo.name}`, repo: repoHeaderOf(access, "wiki") },
    <section class="wiki-empty" aria-labelledby="wiki-empty-title">
      <h2 id="wiki-empty-title">
        <Icon name="book" /> Welcome to the wiki
      </h2>
      <p>This wiki has no pages yet. A wiki holds documentation about the project.</p>
    </section>,
  );
}

/**
 * Forgejo's `/{owner}/{repo}/wiki/` (repo.Wiki without a page): the Home page; the pages list with
 * `?action=_pages`; the welcome of an empty wiki; the pages list when there is no Home.
 */
async function wikiHome(c: WebContext, fields: Fields): Promise<Response> {
  const access = await wikiAccess(c);
  const wikis = c.get("services").wikis;
  if (!(await wikis.open(access.repo))) return showEmpty(c, access);
  if (fields("action") === "_pages") return showPages(c, access, fields);
  try {
    return await showPage(c, access, "Home");
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const { repo } = access;
    return seeOther(c, `${repoPath(repo.ownerName, repo.name)}/wiki/?action=_pages`);
  }
}

const homeRoute = (path: string) =>
  page({ method: "get", path, access: "public", variants: ["action=_pages"], handler: wikiHome });

/** Forgejo's `/{owner}/{repo}/wiki/{page}`: one page, or its history with `?action=_revision`. */
export const wikiPage = page({
  method: "get",
  path: "/:username/:reponame/wiki/:page{.+}",
  access: "public",
  variants: ["action=_revision"],
  async handler(c, fields) {
    const access = await wikiAccess(c);
    const webPath = requestedPage(c);
    if (fields("action") === "_revision") return showRevisions(c, access, webPath, fields);
    return showPage(c, access, webPath);
  },
});

export const wikiRoutes = [
  homeRoute("/:username/:reponame/wiki"),
  homeRoute("/:username/:reponame/wiki/"),
  wikiPage,
];
