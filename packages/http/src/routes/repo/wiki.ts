import { api, BadRequestError } from "@kiln/domain";
import { toApiWikiCommit, toApiWikiPage, toApiWikiPageMetaData, webPathFromRequest } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pagedJson, pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/wiki.go: a repository's wiki pages. Every route needs the wiki
 * unit readable (Forgejo's mustEnableWiki: 404 otherwise); writes need it writable, a token and
 * a repository that is not archived (423), and create and edit check the owner's `size:wiki`
 * quota (EnforceQuotaAPI). `{pageName}` is read raw, still escaped, as Forgejo's PathParamRaw.
 */

const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;
const pageParams = v.object({ ...repoParams, pageName: qs.string("name of the page") });

/** The `{pageName}` of the request as sent (the last segment of the path, not yet unescaped). */
function rawPageName(c: AppContext): string {
  const path = new URL(c.req.url).pathname;
  return webPathFromRequest(path.slice(path.lastIndexOf("/") + 1));
}

/** Go's base64.StdEncoding: padded, the standard alphabet (line breaks are ignored); 400 otherwise. */
function decodeContent(content: string | undefined): Uint8Array {
  const text = (content ?? "").replace(/[\r\n]/g, "");
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
    throw new BadRequestError("invalid base64 encoding of content");
  }
  return Buffer.from(text, "base64");
}

export const repoCreateWikiPage = route({
  method: "post",
  path: "/repos/{owner}/{repo}/wiki/new",
  operationId: "repoCreateWikiPage",
  tags: ["repository"],
  summary: "Create a wiki page",
  access: "signed-in",
  repo: { write: ["repo.wiki"] },
  notArchived: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateWikiPageOptions,
  responses: {
    201: { description: "WikiPage", schema: api.WikiPage },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:wiki", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const content = decodeContent(body.content_base64);
    const wikis = c.get("services").wikis;
    const webPath = await wikis.create(access.repo, user, body.title ?? "", {
      content,
      ...(body.message ? { message: body.message } : {}),
    });
    return c.json(toApiWikiPage(await wikis.page(access.repo, webPath), access.repo, c.get("settings")), 201);
  },
});

export const repoGetWikiPage = route({
  method: "get",
  path: "/repos/{owner}/{repo}/wiki/page/{pageName}",
  operationId: "repoGetWikiPage",
  tags: ["repository"],
  summary: "Get a wiki page",
  access: "public",
  repo: { read: "repo.wiki", hiddenWithout: "repo.wiki" },
  scopes: ["repository"],
  params: pageParams,
  responses: { 200: { description: "WikiPage", schema: api.WikiPage }, ...notFound },
  async handler(c, { repo: access }) {
    const page = await c.get("services").wikis.page(access.repo, rawPageName(c));
    return c.json(toApiWikiPage(page, access.repo, c.get("settings")));
  },
});

export const repoEditWikiPage = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/wiki/page/{pageName}",
  operationId: "repoEditWikiPage",
  tags: ["repository"],
  summary: "Edit a wiki page",
  access: "signed-in",
  repo: { write: ["repo.wiki"] },
  notArchived: true,
  scopes: ["repository"],
  params: pageParams,
  body: api.CreateWikiPageOptions,
  responses: {
    200: { description: "WikiPage", schema: api.WikiPage },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:wiki", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const content = decodeContent(body.content_base64);
    const wikis = c.get("services").wikis;
    const webPath = await wikis.edit(access.repo, user, rawPageName(c), body.title, {
      content,
      ...(body.message ? { message: body.message } : {}),
    });
    return c.json(toApiWikiPage(await wikis.page(access.repo, webPath), access.repo, c.get("settings")));
  },
});

export const repoDeleteWikiPage = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/wiki/page/{pageName}",
  operationId: "repoDeleteWikiPage",
  tags: ["repository"],
  summary: "Delete a wiki page",
  access: "signed-in",
  repo: { write: ["repo.wiki"] },
  notArchived: true,
  scopes: ["repository"],
  params: pageParams,
  responses: { ...empty, ...forbidden, ...notFound, ...repoArchived },
  async handler(c, { principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").wikis.delete(access.repo, user, rawPageName(c));
    return c.body(null, 204);
  },
});

export const repoGetWikiPages = route({
  method: "get",
  path: "/repos/{owner}/{repo}/wiki/pages",
  operationId: "repoGetWikiPages",
  tags: ["repository"],
  summary: "Get all wiki pages",
  access: "public",
  repo: { read: "repo.wiki", hiddenWithout: "repo.wiki" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: { 200: { description: "WikiPageList", schema: v.array(api.WikiPageMetaData) }, ...notFound },
  handler(c, { query, repo: access }) {
    const settings = c.get("settings");
    return pagedJson(
      c,
      query,
      (page) => c.get("services").wikis.pages(access.repo, page),
      (page) => toApiWikiPageMetaData(page, access.repo, settings),
    );
  },
});

export const repoGetWikiPageRevisions = route({
  method: "get",
  path: "/repos/{owner}/{repo}/wiki/revisions/{pageName}",
  operationId: "repoGetWikiPageRevisions",
  tags: ["repository"],
  summary: "Get revisions of a wiki page",
  access: "public",
  repo: { read: "repo.wiki", hiddenWithout: "repo.wiki" },
  scopes: ["repository"],
  params: pageParams,
  query: v.object({ page: pageQuery.page }),
  responses: { 200: { description: "WikiCommitList", schema: api.WikiCommitList }, ...notFound },
  async handler(c, { query, repo: access }) {
    const wikis = c.get("services").wikis;
    const page = pageRequest(
      { page: query.page, limit: "50" },
      { ...c.get("settings").api, maxResponseItems: 50 },
    );
    const history = await wikis.revisions(access.repo, rawPageName(c), page.page);
    setPagingHeaders(c, { page: page.page, limit: 50 }, history.total);
    return c.json({ commits: history.commits.map(toApiWikiCommit), count: history.total });
  },
});

/** The routes of routers/api/v1/repo/wiki.go. */
export const wikiRoutes = [
  repoCreateWikiPage,
  repoGetWikiPage,
  repoEditWikiPage,
  repoDeleteWikiPage,
  repoGetWikiPages,
  repoGetWikiPageRevisions,
];
