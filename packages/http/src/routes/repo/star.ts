import { api } from "@kiln/domain";
import * as v from "valibot";
import { toApiUser } from "../../convert/user.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/star.go: who starred a repository (accounts the caller may see). */

const userList = { description: "UserList", schema: v.array(api.User) };

export const repoListStargazers = route({
  method: "get",
  path: "/repos/{owner}/{repo}/stargazers",
  operationId: "repoListStargazers",
  tags: ["repository"],
  summary: "List a repo's stargazers",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: { 200: userList, ...notFound },
  async handler(c, { query, repo }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").stars.stargazers(repo, page),
      (u) => toApiUser(u, c.get("actor").user, c.get("settings")),
    );
  },
});

export const repoStarRoutes = [repoListStargazers];
