import { api, type User } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { route } from "../../route.js";
import { notFound, validationError } from "../responses.js";
import {
  checkQuery,
  checkQuota,
  getQuota,
  listQuery,
  listQuotaArtifacts,
  listQuotaAttachments,
  listQuotaPackages,
  quotaEnabled,
  quotaResponses,
} from "../shared/quota.js";

/**
 * Forgejo's routers/api/v1/org/quota.go: an organization's quota, for its owners and site
 * admins (403 `Must be an organization owner` for anyone else; 404 for an organization the
 * caller cannot see).
 */

const common = {
  tags: ["organization"],
  access: "signed-in",
  scopes: ["organization"],
  enabled: quotaEnabled,
  params: v.object({ org: v.string() }),
} as const;

const responses = { ...quotaResponses, ...notFound };

/** The organization of the path, once the caller is known to own it (or to be a site admin). */
async function ownedOrg(
  c: AppContext,
  name: string,
  principal: Parameters<typeof requirePrincipal>[0],
): Promise<User> {
  requirePrincipal(principal);
  const { org } = await c.get("services").access.org(c.get("actor"), name, "owner");
  return org;
}

export const orgGetQuota = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/quota",
  operationId: "orgGetQuota",
  summary: "Get quota information for an organization",
  responses: { 200: { description: "QuotaInfo", schema: api.QuotaInfo }, ...responses },
  handler: async (c, { params, principal }) => getQuota(c, (await ownedOrg(c, params.org, principal)).id),
});

export const orgCheckQuota = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/quota/check",
  operationId: "orgCheckQuota",
  summary: "Check if the organization is over quota for a given subject",
  query: checkQuery,
  responses: {
    200: { description: "boolean: true when within quota", schema: v.boolean() },
    ...responses,
    ...validationError,
  },
  handler: async (c, { params, query, principal }) =>
    checkQuota(c, (await ownedOrg(c, params.org, principal)).id, query.subject),
});

export const orgListQuotaAttachments = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/quota/attachments",
  operationId: "orgListQuotaAttachments",
  summary: "List the attachments affecting the organization's quota",
  query: listQuery,
  responses: {
    200: { description: "QuotaUsedAttachmentList", schema: api.QuotaUsedAttachmentList },
    ...responses,
  },
  handler: async (c, { params, query, principal }) =>
    listQuotaAttachments(c, (await ownedOrg(c, params.org, principal)).id, query),
});

export const orgListQuotaPackages = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/quota/packages",
  operationId: "orgListQuotaPackages",
  summary: "List the packages affecting the organization's quota",
  query: listQuery,
  responses: { 200: { description: "QuotaUsedPackageList", schema: api.QuotaUsedPackageList }, ...responses },
  handler: async (c, { params, query, principal }) =>
    listQuotaPackages(c, (await ownedOrg(c, params.org, principal)).id, query),
});

export const orgListQuotaArtifacts = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/quota/artifacts",
  operationId: "orgListQuotaArtifacts",
  summary: "List the artifacts affecting the organization's quota",
  query: listQuery,
  responses: {
    200: { description: "QuotaUsedArtifactList", schema: api.QuotaUsedArtifactList },
    ...responses,
  },
  handler: async (c, { params, query, principal }) =>
    listQuotaArtifacts(c, (await ownedOrg(c, params.org, principal)).id, query),
});

export const orgQuotaRoutes = [
  orgGetQuota,
  orgCheckQuota,
  orgListQuotaAttachments,
  orgListQuotaPackages,
  orgListQuotaArtifacts,
];
