import { actionScope } from "@kiln/service";
import { actionSettingRoutes } from "../shared/action-setting-routes.js";
import { repoParams } from "./context.js";

/**
 * A repository's Actions secrets and variables (Forgejo's routers/api/v1/repo/action.go, the
 * secrets and variables half), for the repository's owner (Forgejo's reqOwner: the owner, an
 * owner of its organization, a site admin).
 */
export const repoActionSettingsRoutes = actionSettingRoutes({
  tags: ["repository"],
  access: "signed-in",
  repo: "owner",
  scopes: ["repository"],
  path: "/repos/{owner}/{repo}/actions",
  params: repoParams,
  level: "repo",
  scope: ({ repo }) => actionScope.repo(repo!.repo),
  names: {
    listSecrets: ["repoListActionsSecrets", "List an repo's actions secrets"],
    putSecret: ["updateRepoSecret", "Create or Update a secret value in a repository"],
    deleteSecret: ["deleteRepoSecret", "Delete a secret in a repository"],
    listVariables: ["getRepoVariablesList", "Get repo-level variables list"],
    getVariable: ["getRepoVariable", "Get a repo-level variable"],
    createVariable: ["createRepoVariable", "Create a repo-level variable"],
    updateVariable: ["updateRepoVariable", "Update a repo-level variable"],
    deleteVariable: ["deleteRepoVariable", "Delete a repo-level variable"],
  },
});
