import { api } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { loadRepo, repoParams, requireRepoReader } from "./context.js";

/** Forgejo's GetLanguages (routers/api/v1/repo/repo.go): bytes per language on the default branch. */

export const repoGetLanguages = route({
  method: "get",
  path: "/repos/{owner}/{repo}/languages",
  operationId: "repoGetLanguages",
  tags: ["repository"],
  summary: "Get languages and number of bytes of code written",
  access: "public",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "LanguageStatistics", schema: api.LanguageStatistics },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, principal }) {
    const ctx = await loadRepo(c, params.owner, params.repo, principal);
    requireRepoReader(ctx, "repo.code");
    return c.json(await c.var.services.gitObjects.languages(ctx.repo));
  },
});

export const languageRoutes = [repoGetLanguages];
