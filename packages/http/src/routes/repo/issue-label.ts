import { api, type Label, timeOf } from "@kiln/domain";
import { repoLinks, toApiLabel } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { type RepoContext, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/issue_label.go: an issue's labels, changed by writers. */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;

function apiLabels(c: AppContext, access: RepoContext, list: readonly Label[]) {
  const apiRepo = repoLinks(access.repo, c.get("settings")).api;
  return list.map((label) =>
    toApiLabel(
      label,
      label.orgId !== null ? { orgName: access.repo.ownerName } : { apiRepo },
      c.get("settings"),
    ),
  );
}

const updatedAtOf = (body: { updated_at?: string | undefined } | undefined) =>
  body?.updated_at === undefined ? undefined : timeOf(body.updated_at);

export const issueGetLabels = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/labels",
  operationId: "issueGetLabels",
  tags: ["issue"],
  summary: "Get an issue's labels",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object(pageQuery),
  responses: { 200: { description: "LabelList", schema: v.array(api.Label) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    // Forgejo answers all of them; Kiln at most UNPAGED_LIMIT, with X-Total-Count, paged when asked.
    return optionallyPagedJson(
      c,
      query,
      async (page) => {
        const list = await c.get("services").issueLabels.listPage(access, params.index, page);
        return { total: list.total, items: apiLabels(c, access, list.items) };
      },
      (label) => label,
    );
  },
});

export const issueAddLabel = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/labels",
  operationId: "issueAddLabel",
  tags: ["issue"],
  summary: "Add a label to an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.IssueLabelsOption,
  bodyRequired: false,
  responses: {
    200: { description: "LabelList", schema: v.array(api.Label) },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const list = await c
      .get("services")
      .issueLabels.add(access, params.index, body.labels ?? [], updatedAtOf(body));
    return c.json(apiLabels(c, access, list));
  },
});

export const issueReplaceLabels = route({
  method: "put",
  path: "/repos/{owner}/{repo}/issues/{index}/labels",
  operationId: "issueReplaceLabels",
  tags: ["issue"],
  summary: "Replace an issue's labels",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.IssueLabelsOption,
  bodyRequired: false,
  responses: {
    200: { description: "LabelList", schema: v.array(api.Label) },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const list = await c
      .get("services")
      .issueLabels.replace(access, params.index, body.labels ?? [], updatedAtOf(body));
    return c.json(apiLabels(c, access, list));
  },
});

export const issueClearLabels = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/labels",
  operationId: "issueClearLabels",
  tags: ["issue"],
  summary: "Remove all labels from an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.DeleteLabelsOption,
  bodyRequired: false,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, body, repo: access }) {
    await c.get("services").issueLabels.clear(access, params.index, updatedAtOf(body));
    return c.body(null, 204);
  },
});

export const issueRemoveLabel = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/labels/{id}",
  operationId: "issueRemoveLabel",
  tags: ["issue"],
  summary: "Remove a label from an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: v.object({
    ...repoParams,
    index: qs.int("index of the issue", { min: 1 }),
    id: qs.int("id of the label to remove"),
  }),
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, repo: access }) {
    await c.get("services").issueLabels.remove(access, params.index, params.id);
    return c.body(null, 204);
  },
});

export const issueLabelRoutes = [
  issueGetLabels,
  issueAddLabel,
  issueReplaceLabels,
  issueClearLabels,
  issueRemoveLabel,
];
