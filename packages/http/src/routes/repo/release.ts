import { api } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { conflict, empty, forbidden, notFound, validationError } from "../responses.js";
import { apiReleases } from "./api-releases.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/release.go and release_tags.go. Readers of the releases unit see
 * published releases; drafts only those who may write releases (Forgejo shows a draft to anyone
 * who asks for it by id or tag; Kiln answers 404, as for anything hidden).
 */

const idParams = v.object({ ...repoParams, id: qs.int("id of the release") });
const tagParams = v.object({ ...repoParams, tag: qs.string("tag name of the release") });
const archived = { 423: { description: "repoArchivedError", schema: api.APIError } } as const;

export const repoListReleases = route({
  method: "get",
  path: "/repos/{owner}/{repo}/releases",
  operationId: "repoListReleases",
  tags: ["repository"],
  summary: "List a repo's releases",
  access: "public",
  repo: { read: "repo.releases" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    draft: v.optional(
      qs.bool("filter (exclude / include) drafts, if you dont have repo write access none will show"),
    ),
    "pre-release": v.optional(qs.bool("filter (exclude / include) pre-releases")),
    q: v.optional(qs.string("Search string")),
    ...pageQuery,
  }),
  responses: { 200: { description: "ReleaseList", schema: v.array(api.Release) }, ...notFound },
  handler(c, { query, repo: access }) {
    return pagedJson(
      c,
      query,
      async (page) => {
        const list = await c
          .get("services")
          .releases.list(access, { draft: query.draft, prerelease: query["pre-release"], q: query.q }, page);
        return { total: list.total, items: await apiReleases(c, access, list.items) };
      },
      (release) => release,
    );
  },
});

export const repoCreateRelease = route({
  method: "post",
  path: "/repos/{owner}/{repo}/releases",
  operationId: "repoCreateRelease",
  tags: ["repository"],
  summary: "Create a release",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateReleaseOption,
  responses: {
    201: { description: "Release", schema: api.Release },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...validationError,
    ...archived,
  },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const row = await c.get("services").releases.create(access, user, {
      tagName: body.tag_name,
      target: body.target_commitish,
      title: body.name,
      note: body.body,
      draft: body.draft,
      prerelease: body.prerelease,
      hideArchiveLinks: body.hide_archive_links,
    });
    return c.json((await apiReleases(c, access, [row]))[0], 201);
  },
});

export const repoGetLatestRelease = route({
  method: "get",
  path: "/repos/{owner}/{repo}/releases/latest",
  operationId: "repoGetLatestRelease",
  tags: ["repository"],
  summary: "Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at",
  access: "public",
  repo: { read: "repo.releases" },
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { 200: { description: "Release", schema: api.Release }, ...notFound },
  async handler(c, { repo: access }) {
    const row = await c.get("services").releases.latest(access);
    return c.json((await apiReleases(c, access, [row]))[0]);
  },
});

export const repoGetReleaseByTag = route({
  method: "get",
  path: "/repos/{owner}/{repo}/releases/tags/{tag*}",
  operationId: "repoGetReleaseByTag",
  tags: ["repository"],
  summary: "Get a release by tag name",
  access: "public",
  repo: { read: "repo.releases" },
  scopes: ["repository"],
  params: tagParams,
  responses: { 200: { description: "Release", schema: api.Release }, ...notFound },
  async handler(c, { params, repo: access }) {
    const row = await c.get("services").releases.getByTag(access, params.tag);
    return c.json((await apiReleases(c, access, [row]))[0]);
  },
});

export const repoDeleteReleaseByTag = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/releases/tags/{tag*}",
  operationId: "repoDeleteReleaseByTag",
  tags: ["repository"],
  summary: "Delete a release by tag name (the tag stays)",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: tagParams,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, repo: access }) {
    const releases = c.get("services").releases;
    await releases.delete(access, await releases.getByTag(access, params.tag));
    return c.body(null, 204);
  },
});

export const repoGetRelease = route({
  method: "get",
  path: "/repos/{owner}/{repo}/releases/{id}",
  operationId: "repoGetRelease",
  tags: ["repository"],
  summary: "Get a release",
  access: "public",
  repo: { read: "repo.releases" },
  scopes: ["repository"],
  params: idParams,
  responses: { 200: { description: "Release", schema: api.Release }, ...notFound },
  async handler(c, { params, repo: access }) {
    const row = await c.get("services").releases.get(access, params.id);
    return c.json((await apiReleases(c, access, [row]))[0]);
  },
});

export const repoEditRelease = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/releases/{id}",
  operationId: "repoEditRelease",
  tags: ["repository"],
  summary: "Update a release",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: idParams,
  body: api.EditReleaseOption,
  bodyRequired: false,
  responses: {
    200: { description: "Release", schema: api.Release },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...validationError,
    ...archived,
  },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const row = await c.get("services").releases.edit(access, user, params.id, {
      tagName: body?.tag_name,
      target: body?.target_commitish,
      title: body?.name,
      note: body?.body,
      draft: body?.draft,
      prerelease: body?.prerelease,
      hideArchiveLinks: body?.hide_archive_links,
    });
    return c.json((await apiReleases(c, access, [row]))[0]);
  },
});

export const repoDeleteRelease = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/releases/{id}",
  operationId: "repoDeleteRelease",
  tags: ["repository"],
  summary: "Delete a release (the tag stays)",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, repo: access }) {
    const releases = c.get("services").releases;
    await releases.delete(access, await releases.get(access, params.id));
    return c.body(null, 204);
  },
});

/** Static and tag paths before `{id}`, which would take `latest` or `tags` for an id. */
export const releaseRoutes = [
  repoListReleases,
  repoCreateRelease,
  repoGetLatestRelease,
  repoGetReleaseByTag,
  repoDeleteReleaseByTag,
  repoGetRelease,
  repoEditRelease,
  repoDeleteRelease,
];
