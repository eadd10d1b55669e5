import { route } from "../../route.js";
import { createOrgRepo } from "./repo.js";

/** Forgejo's routers/api/v1/repo/repo.go CreateOrgRepoDeprecated: the old path of createOrgRepo, same behaviour. */
export const createOrgRepoDeprecated = route({
  ...createOrgRepo,
  path: "/org/{org}/repos",
  operationId: "createOrgRepoDeprecated",
  summary: "Create a repository in an organization (deprecated: use POST /orgs/{org}/repos)",
});

export const deprecatedRepoRoutes = [createOrgRepoDeprecated];
