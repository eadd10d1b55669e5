import { api } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's GetIssueTemplates, GetIssueConfig and ValidateIssueConfig (routers/api/v1/repo/repo.go). */

export const repoGetIssueTemplates = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issue_templates",
  operationId: "repoGetIssueTemplates",
  tags: ["repository"],
  summary: "Get available issue templates for a repository",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: {
      description: "IssueTemplates",
      schema: v.array(api.IssueTemplate),
      validate: v.nullable(v.array(api.IssueTemplate)),
    },
    ...notFound,
  },
  async handler(c, { repo: access }) {
    const templates = await c.get("services").issueTemplates.templates(access.repo);
    // Forgejo never initialises its list, so a repository without valid templates answers `null`.
    return c.json(templates.length > 0 ? templates : null);
  },
});

export const repoGetIssueConfig = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issue_config",
  operationId: "repoGetIssueConfig",
  tags: ["repository"],
  summary: "Returns the issue config for a repo",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { 200: { description: "RepoIssueConfig", schema: api.IssueConfig }, ...notFound },
  async handler(c, { repo: access }) {
    return c.json((await c.get("services").issueTemplates.config(access.repo)).config);
  },
});

export const repoValidateIssueConfig = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issue_config/validate",
  operationId: "repoValidateIssueConfig",
  tags: ["repository"],
  summary: "Returns the validation information for a issue config",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "RepoIssueConfigValidation", schema: api.IssueConfigValidation },
    ...notFound,
  },
  async handler(c, { repo: access }) {
    const { error } = await c.get("services").issueTemplates.config(access.repo);
    return c.json({ valid: error === undefined, message: error ?? "" });
  },
});

export const issueTemplateRoutes = [repoGetIssueTemplates, repoGetIssueConfig, repoValidateIssueConfig];
