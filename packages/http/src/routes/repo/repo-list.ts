import { api, InvalidArgumentError, isKilnError, REPO_ORDERS, type RepoOrder } from "@kiln/domain";
import { viewerOf } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound, validationError } from "../responses.js";
import { apiRepos } from "./context.js";

/**
 * Lists of repositories, each filtered by the access module's visibility fragment: Forgejo's
 * routers/api/v1/user/repo.go (ListMyRepos, ListUserRepos, ListOrgRepos) and the Search of
 * routers/api/v1/repo/repo.go.
 */

/** Lists repositories visible to the caller, with X-Total-Count and Link. */
async function listed(
  c: AppContext,
  filter: Parameters<AppContext["var"]["services"]["repositories"]["list"]>[1],
  query: { page?: string; limit?: string },
  order: RepoOrder = "id",
) {
  const page = pageRequest(query, c.get("settings").api);
  const list = await c.get("services").repositories.list(viewerOf(c.get("actor")), filter, page, order);
  setPagingHeaders(c, page, list.total);
  return apiRepos(c, list.items);
}

export const userCurrentListRepos = route({
  method: "get",
  path: "/user/repos",
  operationId: "userCurrentListRepos",
  tags: ["user"],
  summary: "List the repos that the authenticated user owns or can access",
  access: "signed-in",
  scopes: ["user", "repository"],
  query: v.object({
    order_by: v.optional(qs.enum(REPO_ORDERS, "order the repositories (default: id)")),
    ...pageQuery,
  }),
  responses: { 200: { description: "RepositoryList", schema: v.array(api.Repository) } },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return c.json(await listed(c, { accessibleBy: user.id }, query, query.order_by ?? "id"));
  },
});

export const userListRepos = route({
  method: "get",
  path: "/users/{username}/repos",
  operationId: "userListRepos",
  tags: ["user"],
  summary: "List the repos owned by the given user",
  access: "public",
  scopes: ["user", "repository"],
  params: v.object({ username: v.string() }),
  query: v.object(pageQuery),
  responses: {
    200: { description: "RepositoryList", schema: v.array(api.Repository) },
    ...notFound,
  },
  async handler(c, { params, query }) {
    const owner = await c.get("services").access.account(c.get("actor"), params.username);
    return c.json(await listed(c, { ownerId: owner.id }, query));
  },
});

export const orgListRepos = route({
  method: "get",
  path: "/orgs/{org}/repos",
  operationId: "orgListRepos",
  tags: ["organization"],
  summary: "List an organization's repos",
  access: "public",
  scopes: ["organization"],
  params: v.object({ org: v.string() }),
  query: v.object(pageQuery),
  responses: {
    200: { description: "RepositoryList", schema: v.array(api.Repository) },
    ...notFound,
  },
  async handler(c, { params, query }) {
    const { org } = await c.get("services").access.org(c.get("actor"), params.org);
    return c.json(await listed(c, { ownerId: org.id }, query));
  },
});

const SORTS: Readonly<Record<string, readonly [RepoOrder, RepoOrder]>> = {
  alpha: ["alphabetically", "reversealphabetically"],
  created: ["oldest", "newest"],
  updated: ["leastupdate", "recentupdate"],
  size: ["size", "reversesize"],
  git_size: ["gitsize", "reversegitsize"],
  lfs_size: ["lfssize", "reverselfssize"],
  id: ["id", "id"],
};

export const repoSearch = route({
  method: "get",
  path: "/repos/search",
  operationId: "repoSearch",
  tags: ["repository"],
  summary: "Search for repositories",
  access: "public",
  scopes: ["repository"],
  query: v.object({
    q: v.optional(qs.string("keyword")),
    topic: v.optional(qs.bool("Limit search to repositories with keyword as topic")),
    includeDesc: v.optional(qs.bool("include search of keyword within repository description")),
    uid: v.optional(qs.int("search only for repos that the user with the given id owns or contributes to")),
    private: v.optional(qs.bool("include private repositories this user has access to (defaults to true)")),
    is_private: v.optional(qs.bool("show only pubic, private or all repositories (defaults to all)")),
    template: v.optional(qs.bool("include template repositories this user has access to (defaults to true)")),
    archived: v.optional(qs.bool("show only archived, non-archived or all repositories (defaults to all)")),
    mode: v.optional(
      qs.enum(["fork", "source", "mirror", "collaborative"], "type of repository to search for"),
    ),
    exclusive: v.optional(qs.bool("if `uid` is given, search only for repos that the user owns")),
    sort: v.optional(
      qs.string("sort repos by attribute: alpha, created, updated, size, git_size, lfs_size, id"),
    ),
    order: v.optional(qs.string("sort order, either `asc` (ascending) or `desc` (descending)")),
    ...pageQuery,
  }),
  responses: {
    200: { description: "SearchResults", schema: api.SearchResults },
    ...validationError,
  },
  async handler(c, { query }) {
    let order: RepoOrder = "id";
    if (query.sort) {
      const direction = (query.order ?? "asc").toLowerCase();
      if (direction !== "asc" && direction !== "desc")
        throw new InvalidArgumentError(`Invalid sort order: "${direction}"`);
      const pair = SORTS[query.sort];
      if (!pair) throw new InvalidArgumentError(`Invalid sort mode: "${query.sort}"`);
      order = direction === "asc" ? pair[0] : pair[1];
    }
    // As Forgejo, an owner that does not exist or that the caller may not see gives an empty
    // result (200), so the answer tells nothing about the id.
    const owner =
      query.uid !== undefined && query.uid > 0
        ? await c
            .get("services")
            .access.accountById(c.get("actor"), query.uid)
            .catch((err: unknown) => {
              if (isKilnError(err) && err.kind === "not_found") return null;
              throw err;
            })
        : undefined;
    if (owner === null) {
      const page = pageRequest(query, c.get("settings").api);
      setPagingHeaders(c, page, 0);
      return c.json({ ok: true, data: [] });
    }
    const data = await listed(
      c,
      {
        keyword: query.q,
        includeDescription: query.includeDesc,
        topicOnly: query.topic,
        ...(owner ? (query.exclusive ? { ownerId: owner.id } : { accessibleBy: owner.id }) : {}),
        ...(query.is_private !== undefined
          ? { isPrivate: query.is_private }
          : query.private === false
            ? { isPrivate: false }
            : {}),
        ...(query.template === false ? { isTemplate: false } : {}),
        ...(query.archived !== undefined ? { isArchived: query.archived } : {}),
        ...(query.mode === "fork"
          ? { isFork: true }
          : query.mode === "source"
            ? { isFork: false, isMirror: false }
            : query.mode === "mirror"
              ? { isMirror: true }
              : {}),
      },
      query,
      order,
    );
    return c.json({ ok: true, data });
  },
});
