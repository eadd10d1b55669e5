import { api } from "@kiln/domain";
import { accountSight, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's GetAssignees and GetReviewers (routers/api/v1/repo/repo.go): who a repository's
 * issues and pull requests can name, for any signed-in reader of the repository. Forgejo lists
 * them whole, unpaged.
 */

const userList = { 200: { description: "UserList", schema: v.array(api.User) } } as const;

export const repoGetAssignees = route({
  method: "get",
  path: "/repos/{owner}/{repo}/assignees",
  operationId: "repoGetAssignees",
  tags: ["repository"],
  summary: "Return all users that have write access and can be assigned to issues",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...userList, ...notFound },
  async handler(c, { repo: access }) {
    const users = await c.get("services").repoPeople.assignees(access);
    return c.json(users.map((u) => toApiUser(u, accountSight(access.viewer), c.get("settings"))));
  },
});

export const repoGetReviewers = route({
  method: "get",
  path: "/repos/{owner}/{repo}/reviewers",
  operationId: "repoGetReviewers",
  tags: ["repository"],
  summary: "Return all users that can be requested to review in this repo",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...userList, ...notFound },
  async handler(c, { repo: access }) {
    const users = await c.get("services").repoPeople.reviewers(access);
    return c.json(users.map((u) => toApiUser(u, accountSight(access.viewer), c.get("settings"))));
  },
});

export const repoPeopleRoutes = [repoGetAssignees, repoGetReviewers];
