import { api, type PullsConfig } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { conflict, empty, forbidden, notFound, validationError } from "../responses.js";
import { apiRepo, repoParams } from "./context.js";
import { orgListRepos, repoSearch, userCurrentListRepos, userListRepos } from "./repo-list.js";

/**
 * Forgejo's routers/api/v1/repo/repo.go: create, read, edit and delete repositories (the lists and
 * search are in repo-list.ts; `repoRoutes` keeps both in registration order).
 */

/** A `CreateRepoOption` as the service takes it (the user, organization and admin routes alike). */
export function createInput(body: v.InferOutput<typeof api.CreateRepoOption>) {
  return {
    name: body.name,
    description: body.description,
    private: body.private,
    autoInit: body.auto_init,
    defaultBranch: body.default_branch,
    template: body.template,
    readme: body.readme,
    license: body.license,
    gitignores: body.gitignores,
    issueLabels: body.issue_labels,
  };
}

const createResponses = {
  201: { description: "Repository", schema: api.Repository },
  ...forbidden,
  409: { description: "The repository with the same name already exists.", schema: api.APIError },
  ...validationError,
};

export const createCurrentUserRepo = route({
  method: "post",
  path: "/user/repos",
  operationId: "createCurrentUserRepo",
  tags: ["repository", "user"],
  summary: "Create a repository",
  access: "signed-in",
  scopes: ["user", "repository"],
  body: api.CreateRepoOption,
  responses: createResponses,
  quota: { subject: "size:repos:all" },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const repo = await c.get("services").repositories.create(user, user, createInput(body));
    return c.json(await apiRepo(c, repo), 201);
  },
});

export const createOrgRepo = route({
  method: "post",
  path: "/orgs/{org}/repos",
  operationId: "createOrgRepo",
  tags: ["organization"],
  summary: "Create a repository in an organization",
  access: "signed-in",
  scopes: ["organization"],
  params: v.object({ org: v.string() }),
  body: api.CreateRepoOption,
  responses: { ...createResponses, ...notFound },
  quota: {
    subject: "size:repos:all",
    owner: async (c, { params }) => (await c.get("services").access.org(c.get("actor"), params.org)).org,
  },
  async handler(c, { params, body, principal }) {
    const { user } = requirePrincipal(principal);
    const { org } = await c.get("services").access.org(c.get("actor"), params.org);
    const repo = await c.get("services").repositories.create(user, org, createInput(body));
    return c.json(await apiRepo(c, repo), 201);
  },
});

export const repoGet = route({
  method: "get",
  path: "/repos/{owner}/{repo}",
  operationId: "repoGet",
  tags: ["repository"],
  summary: "Get a repository",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "Repository", schema: api.Repository },
    ...notFound,
  },
  async handler(c, { repo: access }) {
    return c.json(await apiRepo(c, access.repo, access));
  },
});

export const repoGetByID = route({
  method: "get",
  path: "/repositories/{id}",
  operationId: "repoGetByID",
  tags: ["repository"],
  summary: "Get a repository by id",
  access: "signed-in",
  scopes: ["repository"],
  params: v.object({ id: qs.int("id of the repo to get") }),
  responses: {
    200: { description: "Repository", schema: api.Repository },
    ...notFound,
  },
  async handler(c, { params }) {
    const access = await c.get("services").access.repoById(c.get("actor"), params.id);
    return c.json(await apiRepo(c, access.repo, access));
  },
});

export const repoEdit = route({
  method: "patch",
  path: "/repos/{owner}/{repo}",
  operationId: "repoEdit",
  tags: ["repository"],
  summary: "Edit a repository's properties. Only fields that are set will be changed.",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.EditRepoOption,
  responses: {
    200: { description: "Repository", schema: api.Repository },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...validationError,
  },
  async handler(c, { body, repo: access }) {
    const mirrorEdit = await c.get("services").pullMirrors.prepareEdit(access.repo, {
      interval: body.mirror_interval ?? undefined,
      enablePrune: body.enable_prune ?? undefined,
    });
    const repo = await c.get("services").repositories.edit(access.repo, {
      name: body.name,
      description: body.description,
      website: body.website,
      private: body.private,
      template: body.template,
      archived: body.archived,
      defaultBranch: body.default_branch,
      pulls: pullsConfigChanges(body),
    });
    await mirrorEdit();
    return c.json(await apiRepo(c, repo));
  },
});

export const repoDelete = route({
  method: "delete",
  path: "/repos/{owner}/{repo}",
  operationId: "repoDelete",
  tags: ["repository"],
  summary: "Delete a repository",
  access: "signed-in",
  repo: "owner",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { repo: access }) {
    await c.get("services").repositories.delete(access.repo, access.viewer?.id);
    return c.body(null, 204);
  },
});

export const repoRoutes = [
  createCurrentUserRepo,
  userCurrentListRepos,
  createOrgRepo,
  orgListRepos,
  userListRepos,
  repoSearch,
  repoGetByID,
  repoGet,
  repoEdit,
  repoDelete,
];

/** The pull request settings an edit sets (Forgejo's EditRepoOption names), leaving out those not given. */
function pullsConfigChanges(body: v.InferOutput<typeof api.EditRepoOption>): Partial<PullsConfig> {
  const given = {
    allowMergeCommits: body.allow_merge_commits,
    allowRebase: body.allow_rebase,
    allowRebaseExplicit: body.allow_rebase_explicit,
    allowSquashMerge: body.allow_squash_merge,
    allowFastForwardOnlyMerge: body.allow_fast_forward_only_merge,
    allowManualMerge: body.allow_manual_merge,
    autodetectManualMerge: body.autodetect_manual_merge,
    allowRebaseUpdate: body.allow_rebase_update,
    defaultDeleteBranchAfterMerge: body.default_delete_branch_after_merge,
    defaultMergeStyle: body.default_merge_style,
    defaultAllowMaintainerEdit: body.default_allow_maintainer_edit,
    ignoreWhitespaceConflicts: body.ignore_whitespace_conflicts,
  };
  return Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined && value !== null),
  );
}
