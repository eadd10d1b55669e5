import { api } from "@kiln/domain";
import { gitignoreTemplates, labelTemplates } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";

/**
 * Forgejo's routers/api/v1/misc/gitignore.go and label_templates.go: the `.gitignore` templates
 * and label sets a new repository may start with (`gitignores`, `issue_labels`).
 */

const nameParams = v.object({ name: v.pipe(qs.string("name of the template"), v.maxLength(255)) });

export const listGitignoresTemplates = route({
  method: "get",
  path: "/gitignore/templates",
  operationId: "listGitignoresTemplates",
  tags: ["miscellaneous"],
  summary: "Returns a list of all gitignore templates",
  access: "public",
  responses: { 200: { description: "GitignoreTemplateList", schema: v.array(v.string()) } },
  async handler(c) {
    return c.json(await gitignoreTemplates.list());
  },
});

export const getGitignoreTemplateInfo = route({
  method: "get",
  path: "/gitignore/templates/{name}",
  operationId: "getGitignoreTemplateInfo",
  tags: ["miscellaneous"],
  summary: "Returns information about a gitignore template",
  access: "public",
  params: nameParams,
  responses: {
    200: { description: "GitignoreTemplateInfo", schema: api.GitignoreTemplateInfo },
    ...notFound,
  },
  async handler(c, { params }) {
    return c.json(await gitignoreTemplates.get(params.name));
  },
});

export const listLabelTemplates = route({
  method: "get",
  path: "/label/templates",
  operationId: "listLabelTemplates",
  tags: ["miscellaneous"],
  summary: "Returns a list of all label templates",
  access: "public",
  responses: { 200: { description: "LabelTemplateList", schema: v.array(v.string()) } },
  handler(c) {
    return c.json(labelTemplates.list());
  },
});

export const getLabelTemplateInfo = route({
  method: "get",
  path: "/label/templates/{name}",
  operationId: "getLabelTemplateInfo",
  tags: ["miscellaneous"],
  summary: "Returns all labels in a template",
  access: "public",
  params: nameParams,
  responses: { 200: { description: "LabelTemplateInfo", schema: v.array(api.LabelTemplate) }, ...notFound },
  handler(c, { params }) {
    return c.json(
      labelTemplates.get(params.name).map((l) => ({
        name: l.name,
        exclusive: l.exclusive,
        color: l.color.replace(/^#/, ""),
        description: l.description,
      })),
    );
  },
});

export const templateRoutes = [
  listGitignoresTemplates,
  getGitignoreTemplateInfo,
  listLabelTemplates,
  getLabelTemplateInfo,
];
