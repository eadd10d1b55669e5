import { api } from "@kiln/domain";
import { isValidBranchName, isValidRefName } from "@kiln/git";
import { repoLinks, seesBranchRuleNames, toApiBranch } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/branch.go, branches (protections: branch-protection.ts). */

const branchParams = (description: string) => v.object({ ...repoParams, branch: qs.string(description) });

/**
 * Forgejo's `GitRefName` binding of CreateBranchRepoOption, part of the body's validation so it
 * answers 422 before the quota is looked at (Forgejo binds before it checks quota): the new name
 * as `git branch` would accept it (never `HEAD` or `-x`), the sources as names git's format
 * allows. The messages name the Go fields (`BranchName` is `new_branch_name`), as Forgejo's do.
 */
const CreateBranchBody = v.pipe(
  api.CreateBranchRepoOption,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { new_branch_name: name, old_branch_name: oldBranch, old_ref_name: oldRef } = dataset.value;
    const field = [
      ["BranchName", name, isValidBranchName(name)],
      ["OldBranchName", oldBranch, !oldBranch || isValidRefName(oldBranch)],
      ["OldRefName", oldRef, !oldRef || isValidRefName(oldRef)],
    ].find(([, , valid]) => !valid);
    if (!field) return;
    const [key, value] = field as [string, string];
    addIssue({
      message: "GitRefName",
      path: [{ type: "object", origin: "value", input: dataset.value, key, value }],
    });
  }),
);

export const repoListBranches = route({
  method: "get",
  path: "/repos/{owner}/{repo}/branches",
  operationId: "repoListBranches",
  tags: ["repository"],
  summary: "List a repository's branches",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: {
    200: { description: "BranchList", schema: v.array(api.Branch) },
    ...notFound,
  },
  async handler(c, { query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").branches.list(access, page);
    setPagingHeaders(c, page, list.total);
    const links = repoLinks(access.repo, c.get("settings"));
    return c.json(list.items.map((b) => toApiBranch(b, links, seesBranchRuleNames(access))));
  },
});

export const repoGetBranch = route({
  method: "get",
  path: "/repos/{owner}/{repo}/branches/{branch*}",
  operationId: "repoGetBranch",
  tags: ["repository"],
  summary: "Retrieve a specific branch from a repository, including its effective branch protection",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: branchParams("branch to get"),
  responses: {
    200: { description: "Branch", schema: api.Branch },
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const branch = await c.get("services").branches.get(access, params.branch);
    return c.json(
      toApiBranch(branch, repoLinks(access.repo, c.get("settings")), seesBranchRuleNames(access)),
    );
  },
});

export const repoCreateBranch = route({
  method: "post",
  path: "/repos/{owner}/{repo}/branches",
  operationId: "repoCreateBranch",
  tags: ["repository"],
  summary: "Create a branch",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: v.object(repoParams),
  body: CreateBranchBody,
  responses: {
    201: { description: "Branch", schema: api.Branch },
    403: { description: "The branch is archived or a mirror.", schema: api.APIError },
    404: { description: "The old branch does not exist.", schema: api.APINotFound },
    409: { description: "The branch with the same name already exists.", schema: api.APIError },
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const branch = await c.get("services").branches.create(access.repo, user, {
      name: body.new_branch_name,
      ...(body.old_branch_name ? { oldBranchName: body.old_branch_name } : {}),
      ...(body.old_ref_name ? { oldRefName: body.old_ref_name } : {}),
    });
    return c.json(
      toApiBranch(branch, repoLinks(access.repo, c.get("settings")), seesBranchRuleNames(access)),
      201,
    );
  },
});

export const repoDeleteBranch = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/branches/{branch*}",
  operationId: "repoDeleteBranch",
  tags: ["repository"],
  summary: "Delete a specific branch from a repository",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: branchParams("branch to delete"),
  responses: {
    ...empty,
    403: { description: "APIError", schema: api.APIError },
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").branches.delete(access.repo, params.branch, user);
    return c.body(null, 204);
  },
});

export const repoUpdateBranch = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/branches/{branch*}",
  operationId: "repoUpdateBranch",
  tags: ["repository"],
  summary: "Update a branch",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: branchParams("name of the branch"),
  body: api.UpdateBranchRepoOption,
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").branchRenames.rename(access, user, params.branch, body.name);
    return c.body(null, 204);
  },
});

export const branchRoutes = [
  repoListBranches,
  repoCreateBranch,
  repoGetBranch,
  repoDeleteBranch,
  repoUpdateBranch,
];
