import type { Label, Repository } from "@kiln/domain";
import { api } from "@kiln/domain";
import { repoLinks, toApiLabel } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/label.go: a repository's own labels. Reading needs only access
 * to the repository (Forgejo puts no unit check on labels); writing needs write access to issues
 * or pull requests.
 */

const idParams = v.object({ ...repoParams, id: qs.int("id of the label to get") });
const writer = { write: ["repo.issues", "repo.pulls"] } as const;
const apiLabel = (c: AppContext, repo: Repository) => (label: Label) =>
  toApiLabel(label, { apiRepo: repoLinks(repo, c.get("settings")).api }, c.get("settings"));

export const issueListLabels = route({
  method: "get",
  path: "/repos/{owner}/{repo}/labels",
  operationId: "issueListLabels",
  tags: ["issue"],
  summary: "Get all of a repository's labels",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: v.object(repoParams),
  query: v.object({
    ...pageQuery,
    sort: v.optional(qs.string("alphabetically (default), reversealphabetically, leastissues or mostissues")),
  }),
  responses: { 200: { description: "LabelList", schema: v.array(api.Label) }, ...notFound },
  async handler(c, { query, repo: access }) {
    const sort = labelSort(query.sort);
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").labels.list({ repoId: access.repo.id }, sort, page),
      apiLabel(c, access.repo),
    );
  },
});

/** Forgejo's label sorts; anything else is by name. */
export function labelSort(sort: string | undefined) {
  return sort === "reversealphabetically" || sort === "leastissues" || sort === "mostissues"
    ? sort
    : "alphabetically";
}

export const issueCreateLabel = route({
  method: "post",
  path: "/repos/{owner}/{repo}/labels",
  operationId: "issueCreateLabel",
  tags: ["issue"],
  summary: "Create a label",
  access: "signed-in",
  repo: writer,
  scopes: ["issue"],
  params: v.object(repoParams),
  body: api.CreateLabelOption,
  responses: {
    201: { description: "Label", schema: api.Label },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, repo: access }) {
    const label = await c.get("services").labels.create(
      { repoId: access.repo.id },
      {
        name: body.name,
        color: body.color,
        description: body.description,
        exclusive: body.exclusive,
        archived: body.is_archived,
      },
    );
    return c.json(apiLabel(c, access.repo)(label), 201);
  },
});

export const issueGetLabel = route({
  method: "get",
  path: "/repos/{owner}/{repo}/labels/{id}",
  operationId: "issueGetLabel",
  tags: ["issue"],
  summary: "Get a single label",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: v.object({ ...repoParams, id: qs.string("id (or name) of the label to get") }),
  responses: { 200: { description: "Label", schema: api.Label }, ...notFound },
  async handler(c, { params, repo: access }) {
    const label = await c.get("services").labels.get({ repoId: access.repo.id }, params.id);
    return c.json(apiLabel(c, access.repo)(label));
  },
});

export const issueEditLabel = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/labels/{id}",
  operationId: "issueEditLabel",
  tags: ["issue"],
  summary: "Update a label",
  access: "signed-in",
  repo: writer,
  scopes: ["issue"],
  params: idParams,
  body: api.EditLabelOption,
  bodyRequired: false,
  responses: {
    200: { description: "Label", schema: api.Label },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const label = await c.get("services").labels.edit({ repoId: access.repo.id }, params.id, {
      name: body.name,
      color: body.color,
      description: body.description,
      exclusive: body.exclusive,
      archived: body.is_archived,
    });
    return c.json(apiLabel(c, access.repo)(label));
  },
});

export const issueDeleteLabel = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/labels/{id}",
  operationId: "issueDeleteLabel",
  tags: ["issue"],
  summary: "Delete a label",
  access: "signed-in",
  repo: writer,
  scopes: ["issue"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").labels.delete({ repoId: access.repo.id }, params.id);
    return c.body(null, 204);
  },
});

export const labelRoutes = [
  issueListLabels,
  issueCreateLabel,
  issueGetLabel,
  issueEditLabel,
  issueDeleteLabel,
];
