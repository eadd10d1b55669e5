import { api } from "@kiln/domain";
import { type BranchProtectionInput, toApiBranchProtection } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { conflict, empty, forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/branch.go, branch protections: repository admins only (reqAdmin). */

type Options = v.InferOutput<typeof api.EditBranchProtectionOption>;

/** The API body in service terms; absent fields stay absent (unset). */
function protectionInput(body: Options): BranchProtectionInput {
  const map: Record<string, keyof BranchProtectionInput> = {
    enable_push: "enablePush",
    enable_push_whitelist: "enablePushWhitelist",
    push_whitelist_usernames: "pushWhitelistUsernames",
    push_whitelist_teams: "pushWhitelistTeams",
    push_whitelist_deploy_keys: "pushWhitelistDeployKeys",
    enable_merge_whitelist: "enableMergeWhitelist",
    merge_whitelist_usernames: "mergeWhitelistUsernames",
    merge_whitelist_teams: "mergeWhitelistTeams",
    enable_status_check: "enableStatusCheck",
    status_check_contexts: "statusCheckContexts",
    required_approvals: "requiredApprovals",
    enable_approvals_whitelist: "enableApprovalsWhitelist",
    approvals_whitelist_username: "approvalsWhitelistUsernames",
    approvals_whitelist_teams: "approvalsWhitelistTeams",
    block_on_rejected_reviews: "blockOnRejectedReviews",
    block_on_official_review_requests: "blockOnOfficialReviewRequests",
    block_on_outdated_branch: "blockOnOutdatedBranch",
    dismiss_stale_approvals: "dismissStaleApprovals",
    ignore_stale_approvals: "ignoreStaleApprovals",
    require_signed_commits: "requireSignedCommits",
    protected_file_patterns: "protectedFilePatterns",
    unprotected_file_patterns: "unprotectedFilePatterns",
    apply_to_admins: "applyToAdmins",
  };
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = map[key];
    if (name && value !== undefined) input[name] = value;
  }
  return input as BranchProtectionInput;
}

const nameParams = v.object({ ...repoParams, name: qs.string("name of protected branch") });

export const repoListBranchProtection = route({
  method: "get",
  path: "/repos/{owner}/{repo}/branch_protections",
  operationId: "repoListBranchProtection",
  tags: ["repository"],
  summary: "List branch protections for a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "BranchProtectionList", schema: v.array(api.BranchProtection) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { repo: access }) {
    const views = await c.get("services").branchProtections.listViews(access.repo);
    return c.json(views.map(toApiBranchProtection));
  },
});

export const repoCreateBranchProtection = route({
  method: "post",
  path: "/repos/{owner}/{repo}/branch_protections",
  operationId: "repoCreateBranchProtection",
  tags: ["repository"],
  summary: "Create a branch protections for a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateBranchProtectionOption,
  bodyRequired: false,
  responses: {
    201: { description: "BranchProtection", schema: api.BranchProtection },
    400: { description: "APIError", schema: api.APIError },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { body, repo: access }) {
    const { rule_name, branch_name, ...options } = body;
    const view = await c
      .get("services")
      .branchProtections.create(access.repo, rule_name || branch_name || "", protectionInput(options));
    return c.json(toApiBranchProtection(view), 201);
  },
});

export const repoGetBranchProtection = route({
  method: "get",
  path: "/repos/{owner}/{repo}/branch_protections/{name}",
  operationId: "repoGetBranchProtection",
  tags: ["repository"],
  summary: "Get a specific branch protection for the repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: nameParams,
  responses: {
    200: { description: "BranchProtection", schema: api.BranchProtection },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    return c.json(
      toApiBranchProtection(await c.get("services").branchProtections.get(access.repo, params.name)),
    );
  },
});

export const repoEditBranchProtection = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/branch_protections/{name}",
  operationId: "repoEditBranchProtection",
  tags: ["repository"],
  summary: "Edit a branch protections for a repository. Only fields that are set will be changed",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: nameParams,
  body: api.EditBranchProtectionOption,
  bodyRequired: false,
  responses: {
    200: { description: "BranchProtection", schema: api.BranchProtection },
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, body, repo: access }) {
    const view = await c
      .get("services")
      .branchProtections.edit(access.repo, params.name, protectionInput(body));
    return c.json(toApiBranchProtection(view));
  },
});

export const repoDeleteBranchProtection = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/branch_protections/{name}",
  operationId: "repoDeleteBranchProtection",
  tags: ["repository"],
  summary: "Delete a specific branch protection for the repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: nameParams,
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    await c.get("services").branchProtections.delete(access.repo, params.name);
    return c.body(null, 204);
  },
});

export const branchProtectionRoutes = [
  repoListBranchProtection,
  repoCreateBranchProtection,
  repoGetBranchProtection,
  repoEditBranchProtection,
  repoDeleteBranchProtection,
];
