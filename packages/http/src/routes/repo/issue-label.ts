import { api, type Label, timeOf } from "@kiln/domain";
import * as v from "valibot";
import { repoLinks } from "../../convert/git.js";
import { toApiLabel } from "../../convert/label.js";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { type RepoContext, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/issue_label.go: an issue's labels, changed by writers. */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;

function apiLabels(c: AppContext, ctx: RepoContext, list: readonly Label[]) {
  const apiRepo = repoLinks(ctx.repo, c.get("settings")).api;
  return list.map((label) =>
    toApiLabel(
      label,
      label.orgId !== null ? { orgName: ctx.repo.ownerName } : { apiRepo },
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
  async handler(c, { params, query, repo: ctx }) {
    // Forgejo answers all of them; Kiln at most UNPAGED_LIMIT, with X-Total-Count, paged when asked.
    return optionallyPagedJson(
      c,
      query,
      async (page) => {
        const list = await c.get("services").issueLabels.listPage(ctx, params.index, page);
        return { total: list.total, items: apiLabels(c, ctx, list.items) };
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
  async handler(c, { params, body, repo: ctx }) {
    const list = await c
      .get("services")
      .issueLabels.add(ctx, params.index, body.labels ?? [], updatedAtOf(body));
    return c.json(apiLabels(c, ctx, list));
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
  async handler(c, { params, body, repo: ctx }) {
    const list = await c
      .get("services")
      .issueLabels.replace(ctx, params.index, body.labels ?? [], updatedAtOf(body));
    return c.json(apiLabels(c, ctx, list));
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
  async handler(c, { params, body, repo: ctx }) {
    await c.get("services").issueLabels.clear(ctx, params.index, updatedAtOf(body));
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
  async handler(c, { params, repo: ctx }) {
    await c.get("services").issueLabels.remove(ctx, params.index, params.id);
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
