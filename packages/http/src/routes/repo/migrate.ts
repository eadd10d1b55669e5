import { api, NotFoundError } from "@kiln/domain";
import { requirePrincipal } from "../../auth.js";
import { enforceQuota } from "../../quota-enforcement.js";
import { route } from "../../route.js";
import { apiRepo } from "./context.js";

/** Forgejo's routers/api/v1/repo/migrate.go (git repositories; issues, releases etc. are not imported). */

export const repoMigrate = route({
  method: "post",
  path: "/repos/migrate",
  operationId: "repoMigrate",
  tags: ["repository"],
  summary: "Migrate a remote git repository",
  access: "signed-in",
  scopes: ["repository"],
  body: api.MigrateRepoOptions,
  responses: {
    201: { description: "Repository", schema: api.Repository },
    403: { description: "APIForbiddenError", schema: api.APIError },
    409: { description: "The repository with the same name already exists.", schema: api.APIError },
    422: { description: "APIValidationError", schema: api.APIError },
  },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const owner = body.repo_owner
      ? await c.var.services.users.findByName(body.repo_owner)
      : body.uid
        ? await c.var.services.users.findById(body.uid)
        : user;
    if (!owner) throw new NotFoundError("the repository owner does not exist");
    await enforceQuota(c, owner, "size:repos:all");
    const repo = await c.var.services.migrations.migrate(user, owner, {
      cloneAddr: body.clone_addr,
      repoName: body.repo_name,
      description: body.description,
      private: body.private,
      mirror: body.mirror,
      authUsername: body.auth_username,
      authPassword: body.auth_password,
      authToken: body.auth_token,
    });
    return c.json(await apiRepo(c, repo), 201);
  },
});

export const migrateRoutes = [repoMigrate];
