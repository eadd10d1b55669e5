import { api } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's GetLanguages (routers/api/v1/repo/repo.go): bytes per language on the default branch. */

export const repoGetLanguages = route({
  method: "get",
  path: "/repos/{owner}/{repo}/languages",
  operationId: "repoGetLanguages",
  tags: ["repository"],
  summary: "Get languages and number of bytes of code written",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "LanguageStatistics", schema: api.LanguageStatistics },
    ...notFound,
  },
  async handler(c, { repo: access }) {
    return c.json(await c.get("services").gitObjects.languages(access.repo));
  },
});

export const languageRoutes = [repoGetLanguages];
