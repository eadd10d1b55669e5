import { api } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { validationError } from "../responses.js";
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

/** Forgejo's routers/api/v1/user/quota.go: the authenticated user's quota (token scope `user`). */

const common = {
  tags: ["user"],
  access: "signed-in",
  scopes: ["user"],
  enabled: quotaEnabled,
} as const;

export const userGetQuota = route({
  ...common,
  method: "get",
  path: "/user/quota",
  operationId: "userGetQuota",
  summary: "Get quota information for the authenticated user",
  responses: { 200: { description: "QuotaInfo", schema: api.QuotaInfo }, ...quotaResponses },
  handler: (c, { principal }) => getQuota(c, requirePrincipal(principal).user.id),
});

export const userCheckQuota = route({
  ...common,
  method: "get",
  path: "/user/quota/check",
  operationId: "userCheckQuota",
  summary: "Check if the authenticated user is over quota for a given subject",
  query: checkQuery,
  responses: {
    200: { description: "boolean: true when within quota", schema: v.boolean() },
    ...quotaResponses,
    ...validationError,
  },
  handler: (c, { query, principal }) => checkQuota(c, requirePrincipal(principal).user.id, query.subject),
});

export const userListQuotaAttachments = route({
  ...common,
  method: "get",
  path: "/user/quota/attachments",
  operationId: "userListQuotaAttachments",
  summary: "List the attachments affecting the authenticated user's quota",
  query: listQuery,
  responses: {
    200: { description: "QuotaUsedAttachmentList", schema: api.QuotaUsedAttachmentList },
    ...quotaResponses,
  },
  handler: (c, { query, principal }) => listQuotaAttachments(c, requirePrincipal(principal).user.id, query),
});

export const userListQuotaPackages = route({
  ...common,
  method: "get",
  path: "/user/quota/packages",
  operationId: "userListQuotaPackages",
  summary: "List the packages affecting the authenticated user's quota",
  query: listQuery,
  responses: {
    200: { description: "QuotaUsedPackageList", schema: api.QuotaUsedPackageList },
    ...quotaResponses,
  },
  handler: (c, { query, principal }) => listQuotaPackages(c, requirePrincipal(principal).user.id, query),
});

export const userListQuotaArtifacts = route({
  ...common,
  method: "get",
  path: "/user/quota/artifacts",
  operationId: "userListQuotaArtifacts",
  summary: "List the artifacts affecting the authenticated user's quota",
  query: listQuery,
  responses: {
    200: { description: "QuotaUsedArtifactList", schema: api.QuotaUsedArtifactList },
    ...quotaResponses,
  },
  handler: (c, { query, principal }) => listQuotaArtifacts(c, requirePrincipal(principal).user.id, query),
});

export const userQuotaRoutes = [
  userGetQuota,
  userCheckQuota,
  userListQuotaAttachments,
  userListQuotaPackages,
  userListQuotaArtifacts,
];
