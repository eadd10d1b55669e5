import { api, type Label, type User } from "@kiln/domain";
import { toApiLabel } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { labelSort } from "../repo/label.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/**
 * Forgejo's routers/api/v1/org/label.go: labels every repository of the organization may use.
 * Listing needs only to see the organization; reading one label needs a signed-in caller;
 * writing needs an owner of the organization.
 */

const orgParam = v.object({ org: v.string() });
const idParams = v.object({ org: v.string(), id: qs.int("id of the label") });
const apiLabel = (c: AppContext, org: User) => (label: Label) =>
  toApiLabel(label, { orgName: org.name }, c.get("settings"));

export const orgListLabels = route({
  method: "get",
  path: "/orgs/{org}/labels",
  operationId: "orgListLabels",
  tags: ["organization"],
  summary: "List an organization's labels",
  access: "public",
  org: "visible",
  scopes: ["organization"],
  params: orgParam,
  query: v.object({
    ...pageQuery,
    sort: v.optional(qs.string("alphabetically (default), reversealphabetically, leastissues or mostissues")),
  }),
  responses: { 200: { description: "LabelList", schema: v.array(api.Label) }, ...notFound },
  async handler(c, { query, org: { org } }) {
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").labels.list({ orgId: org.id }, labelSort(query.sort), page),
      apiLabel(c, org),
    );
  },
});

export const orgCreateLabel = route({
  method: "post",
  path: "/orgs/{org}/labels",
  operationId: "orgCreateLabel",
  tags: ["organization"],
  summary: "Create a label for an organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  body: api.CreateLabelOption,
  responses: {
    201: { description: "Label", schema: api.Label },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, org: { org } }) {
    // Forgejo creates organization labels unarchived, whatever the request says.
    const label = await c
      .get("services")
      .labels.create(
        { orgId: org.id },
        { name: body.name, color: body.color, description: body.description, exclusive: body.exclusive },
      );
    return c.json(apiLabel(c, org)(label), 201);
  },
});

export const orgGetLabel = route({
  method: "get",
  path: "/orgs/{org}/labels/{id}",
  operationId: "orgGetLabel",
  tags: ["organization"],
  summary: "Get a single label",
  access: "signed-in",
  org: "visible",
  scopes: ["organization"],
  params: idParams,
  responses: { 200: { description: "Label", schema: api.Label }, ...notFound },
  async handler(c, { params, org: { org } }) {
    const label = await c.get("services").labels.get({ orgId: org.id }, String(params.id));
    return c.json(apiLabel(c, org)(label));
  },
});

export const orgEditLabel = route({
  method: "patch",
  path: "/orgs/{org}/labels/{id}",
  operationId: "orgEditLabel",
  tags: ["organization"],
  summary: "Update a label",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: idParams,
  body: api.EditLabelOption,
  bodyRequired: false,
  responses: {
    200: { description: "Label", schema: api.Label },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, org: { org } }) {
    const label = await c.get("services").labels.edit({ orgId: org.id }, params.id, {
      name: body.name,
      color: body.color,
      description: body.description,
      exclusive: body.exclusive,
      archived: body.is_archived,
    });
    return c.json(apiLabel(c, org)(label));
  },
});

export const orgDeleteLabel = route({
  method: "delete",
  path: "/orgs/{org}/labels/{id}",
  operationId: "orgDeleteLabel",
  tags: ["organization"],
  summary: "Delete a label",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, org: { org } }) {
    await c.get("services").labels.delete({ orgId: org.id }, params.id);
    return c.body(null, 204);
  },
});

export const orgLabelRoutes = [orgListLabels, orgCreateLabel, orgGetLabel, orgEditLabel, orgDeleteLabel];
