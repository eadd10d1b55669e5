import { api, InvalidArgumentError, isKilnError } from "@kiln/domain";
import { requirePrincipal } from "../../auth.js";
import { enforceQuota } from "../../quota-enforcement.js";
import { route } from "../../route.js";
import { forbidden, validationError } from "../responses.js";
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
    ...forbidden,
    409: { description: "The repository with the same name already exists.", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    // An owner the caller may not see is answered like one that does not exist (422, as Forgejo).
    const owner = await (body.repo_owner
      ? c.get("services").access.account(c.get("actor"), body.repo_owner)
      : body.uid
        ? c.get("services").access.accountById(c.get("actor"), body.uid)
        : Promise.resolve(user)
    ).catch((err: unknown) => {
      throw isKilnError(err) && err.kind === "not_found" ? new InvalidArgumentError(err.message) : err;
    });
    await enforceQuota(c, owner, "size:repos:all");
    const repo = await c.get("services").migrations.migrate(user, owner, {
      cloneAddr: body.clone_addr,
      repoName: body.repo_name,
      description: body.description,
      private: body.private,
      mirror: body.mirror,
      mirrorInterval: body.mirror_interval,
      authUsername: body.auth_username,
      authPassword: body.auth_password,
      authToken: body.auth_token,
    });
    return c.json(await apiRepo(c, repo), 201);
  },
});

export const migrateRoutes = [repoMigrate];
