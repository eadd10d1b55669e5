import { api } from "@kiln/domain";
import { repoLinks, toAnnotatedTag, toApiTag } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import {
  conflict,
  empty,
  forbidden,
  notFound,
  quotaExceeded,
  repoArchived,
  validationError,
} from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/tag.go: tags (names may contain slashes). */

const tagParams = (description: string) => v.object({ ...repoParams, tag: qs.string(description) });

export const repoListTags = route({
  method: "get",
  path: "/repos/{owner}/{repo}/tags",
  operationId: "repoListTags",
  tags: ["repository"],
  summary: "List a repository's tags",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: {
    200: { description: "TagList", schema: v.array(api.Tag) },
    ...notFound,
  },
  async handler(c, { query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").tags.list(access.repo, page);
    setPagingHeaders(c, page, list.total);
    const links = repoLinks(access.repo, c.get("settings"));
    return c.json(list.items.map((tag) => toApiTag(tag, links)));
  },
});

export const repoGetTag = route({
  method: "get",
  path: "/repos/{owner}/{repo}/tags/{tag*}",
  operationId: "repoGetTag",
  tags: ["repository"],
  summary: "Get the tag of a repository by tag name",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: tagParams("name of tag"),
  responses: {
    200: { description: "Tag", schema: api.Tag },
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const tag = await c.get("services").tags.get(access.repo, params.tag);
    return c.json(toApiTag(tag, repoLinks(access.repo, c.get("settings"))));
  },
});

export const repoCreateTag = route({
  method: "post",
  path: "/repos/{owner}/{repo}/tags",
  operationId: "repoCreateTag",
  tags: ["repository"],
  summary: "Create a new git tag in a repository",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateTagOption,
  responses: {
    201: { description: "Tag", schema: api.Tag },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const tag = await c.get("services").tags.create(access.repo, user, {
      name: body.tag_name,
      ...(body.target ? { target: body.target } : {}),
      ...(body.message ? { message: body.message } : {}),
    });
    return c.json(toApiTag(tag, repoLinks(access.repo, c.get("settings"))), 201);
  },
});

export const repoDeleteTag = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/tags/{tag*}",
  operationId: "repoDeleteTag",
  tags: ["repository"],
  summary: "Delete a repository's tag by name",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: tagParams("name of tag to delete"),
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
    ...conflict,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").tags.delete(access.repo, params.tag, user);
    return c.body(null, 204);
  },
});

export const GetAnnotatedTag = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/tags/{sha}",
  operationId: "GetAnnotatedTag",
  tags: ["repository"],
  summary: "Gets the tag object of an annotated tag (not lightweight tags)",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    sha: qs.string(
      "sha of the tag. The Git tags API only supports annotated tag objects, not lightweight tags.",
    ),
  }),
  responses: {
    200: { description: "AnnotatedTag", schema: api.AnnotatedTag },
    400: { description: "APIError", schema: api.APIError },
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const view = await c.get("services").annotatedTags.get(access.repo, params.sha);
    return c.json(toAnnotatedTag(view, repoLinks(access.repo, c.get("settings"))));
  },
});

export const tagRoutes = [repoListTags, repoCreateTag, repoGetTag, repoDeleteTag, GetAnnotatedTag];
