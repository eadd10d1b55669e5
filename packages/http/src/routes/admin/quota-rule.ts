import { api } from "@kiln/domain";
import { toApiQuotaRule } from "@kiln/service";
import * as v from "valibot";
import { route } from "../../route.js";
import { conflict, empty, forbidden, notFound, validationError } from "../responses.js";
import { quotaEnabled } from "../shared/quota.js";

/** Forgejo's routers/api/v1/admin/quota_rule.go: quota rules (site admins only). */

const common = {
  tags: ["admin"],
  access: "site-admin",
  scopes: ["admin"],
  enabled: quotaEnabled,
} as const;
const ruleParam = v.object({ quotarule: v.string() });

export const adminListQuotaRules = route({
  ...common,
  method: "get",
  path: "/admin/quota/rules",
  operationId: "adminListQuotaRules",
  summary: "List the available quota rules",
  responses: { 200: { description: "QuotaRuleInfoList", schema: v.array(api.QuotaRuleInfo) }, ...forbidden },
  async handler(c) {
    return c.json((await c.get("services").quotaAdmin.listRules()).map((r) => toApiQuotaRule(r, true)));
  },
});

export const adminCreateQuotaRule = route({
  ...common,
  method: "post",
  path: "/admin/quota/rules",
  operationId: "adminCreateQuotaRule",
  summary: "Create a new quota rule",
  body: api.CreateQuotaRuleOptions,
  responses: {
    201: { description: "QuotaRuleInfo", schema: api.QuotaRuleInfo },
    ...forbidden,
    ...conflict,
    ...validationError,
  },
  async handler(c, { body }) {
    const rule = await c.get("services").quotaAdmin.createRule(body);
    return c.json(toApiQuotaRule(rule, true), 201);
  },
});

export const adminGetQuotaRule = route({
  ...common,
  method: "get",
  path: "/admin/quota/rules/{quotarule}",
  operationId: "adminGetQuotaRule",
  summary: "Get information about a quota rule",
  params: ruleParam,
  responses: { 200: { description: "QuotaRuleInfo", schema: api.QuotaRuleInfo }, ...forbidden, ...notFound },
  async handler(c, { params }) {
    return c.json(toApiQuotaRule(await c.get("services").quotaAdmin.getRule(params.quotarule), true));
  },
});

export const adminEditQuotaRule = route({
  ...common,
  method: "patch",
  path: "/admin/quota/rules/{quotarule}",
  operationId: "adminEditQuotaRule",
  summary: "Change an existing quota rule",
  params: ruleParam,
  body: api.EditQuotaRuleOptions,
  responses: {
    200: { description: "QuotaRuleInfo", schema: api.QuotaRuleInfo },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body }) {
    const rule = await c.get("services").quotaAdmin.editRule(params.quotarule, body);
    return c.json(toApiQuotaRule(rule, true));
  },
});

/** Forgejo v12's operationId has the typo `adminDEleteQuotaRule` (fixed in v14); clients generated from v12 use it. */
export const adminDeleteQuotaRule = route({
  ...common,
  method: "delete",
  path: "/admin/quota/rules/{quotarule}",
  operationId: "adminDEleteQuotaRule",
  summary: "Deletes a quota rule",
  params: ruleParam,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    await c.get("services").quotaAdmin.deleteRule(params.quotarule);
    return c.body(null, 204);
  },
});

export const adminQuotaRuleRoutes = [
  adminListQuotaRules,
  adminCreateQuotaRule,
  adminGetQuotaRule,
  adminEditQuotaRule,
  adminDeleteQuotaRule,
];
