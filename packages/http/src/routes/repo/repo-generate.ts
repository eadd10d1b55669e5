import { api } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { enforceQuota } from "../../quota-enforcement.js";
import { route } from "../../route.js";
import { forbidden, notFound, quotaExceeded, validationError } from "../responses.js";
import { apiRepo } from "./context.js";

/**
 * `POST /repos/{template_owner}/{template_repo}/generate`, Forgejo's Generate of
 * routers/api/v1/repo/repo.go (a file of its own here: repo.ts holds the repository's own routes).
 */
export const generateRepo = route({
  method: "post",
  path: "/repos/{template_owner}/{template_repo}/generate",
  operationId: "generateRepo",
  tags: ["repository"],
  summary: "Create a repository using a template",
  access: "signed-in",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({
    template_owner: v.pipe(v.string(), v.metadata({ description: "name of the template repository owner" })),
    template_repo: v.pipe(v.string(), v.metadata({ description: "name of the template repository" })),
  }),
  body: api.GenerateRepoOption,
  responses: {
    201: { description: "Repository", schema: api.Repository },
    ...forbidden,
    ...notFound,
    409: { description: "The repository with the same name already exists.", schema: api.APIError },
    ...quotaExceeded,
    ...validationError,
  },
  async handler(c, { body, principal, repo }) {
    const { user } = requirePrincipal(principal);
    const services = c.get("services");
    // Forgejo: an owner that does not exist is 404; one the caller may not see is answered alike.
    const owner =
      body.owner.toLowerCase() === user.lowerName
        ? user
        : await services.access.account(c.get("actor"), body.owner);
    await services.generator.checkTarget(user, owner);
    await enforceQuota(c, owner, "size:repos:all");
    const created = await services.generator.generate(user, repo.repo, owner, {
      name: body.name,
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.private !== undefined ? { private: body.private } : {}),
      ...(body.default_branch ? { defaultBranch: body.default_branch } : {}),
      gitContent: body.git_content ?? false,
      topics: body.topics ?? false,
      gitHooks: body.git_hooks ?? false,
      webhooks: body.webhooks ?? false,
      avatar: body.avatar ?? false,
      labels: body.labels ?? false,
      protectedBranch: body.protected_branch ?? false,
    });
    return c.json(await apiRepo(c, created), 201);
  },
});

export const repoGenerateRoutes = [generateRepo];
