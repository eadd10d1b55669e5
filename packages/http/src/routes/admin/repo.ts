import { api } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { apiRepo } from "../repo/context.js";
import { createInput } from "../repo/repo.js";
import { conflict, forbidden, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/admin/repo.go: create a repository for a user or organization. */

export const adminCreateRepo = route({
  method: "post",
  path: "/admin/users/{username}/repos",
  operationId: "adminCreateRepo",
  tags: ["admin"],
  summary: "Create a repository on behalf of a user",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ username: v.string() }),
  body: api.CreateRepoOption,
  responses: {
    201: { description: "Repository", schema: api.Repository },
    400: { description: "APIError", schema: api.APIError },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...validationError,
  },
  quota: {
    subject: "size:repos:all",
    owner: (c, { params }) => c.get("services").users.getByName(params.username),
  },
  async handler(c, { params, body, principal }) {
    const admin = requirePrincipal(principal).user;
    const owner = await c.get("services").users.getByName(params.username);
    const repo = await c.get("services").repositories.create(admin, owner, createInput(body));
    return c.json(await apiRepo(c, repo), 201);
  },
});

export const adminRepoRoutes = [adminCreateRepo];
