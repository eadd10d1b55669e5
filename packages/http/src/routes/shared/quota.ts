import { api, type Settings } from "@kiln/domain";
import {
  toApiQuotaInfo,
  toApiQuotaUsedArtifact,
  toApiQuotaUsedAttachment,
  toApiQuotaUsedPackage,
  type UsedItemScope,
} from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import type { ResponseDoc } from "../../route.js";
import { forbidden } from "../responses.js";

/**
 * Forgejo's routers/api/v1/shared/quota.go: what `/user/quota…` and `/orgs/{org}/quota…` share,
 * computed for the owner the route resolved.
 */

/** Every quota route is registered only with `[quota] ENABLED` (404 otherwise, decision 5, docs/decisions.md). */
export const quotaEnabled = (settings: Settings): boolean => settings.quota.enabled;

/** The `subject` of a quota check; absent means empty, which is 422 like any unknown subject. */
export const checkQuery = v.object({
  subject: v.optional(qs.string("subject of the quota (e.g. size:all, size:repos:all, sizelfs)")),
});

/** The page query of the used-item lists. */
export const listQuery = v.object(pageQuery);

/** Responses every user-facing quota route documents besides its 200. */
export const quotaResponses: Readonly<Record<number, ResponseDoc>> = {
  401: { description: "APIUnauthorizedError", schema: api.APIError },
  ...forbidden,
};

/** `GET …/quota`: usage and the groups that apply, without names. */
export async function getQuota(c: AppContext, ownerId: number): Promise<Response> {
  return c.json(toApiQuotaInfo(await c.get("services").quota.info(ownerId), false));
}

/** `GET …/quota/check?subject=`: a bare JSON `true` (within quota) or `false`. */
export async function checkQuota(
  c: AppContext,
  ownerId: number,
  subject: string | undefined,
): Promise<Response> {
  return c.json(await c.get("services").quota.check(ownerId, subject ?? ""));
}

/** What the caller may see of an owner's stored objects: a `public-only` token, public ones only. */
function scopeOf(c: AppContext): UsedItemScope {
  return { publicOnly: c.get("actor").publicOnly };
}

/** `GET …/quota/attachments`: largest first, paginated with X-Total-Count and Link. */
export function listQuotaAttachments(c: AppContext, ownerId: number, query: v.InferOutput<typeof listQuery>) {
  return pagedJson(
    c,
    query,
    (page) => c.get("services").quota.listUsedAttachments(ownerId, page, scopeOf(c)),
    (item) => toApiQuotaUsedAttachment(item, c.get("settings")),
  );
}

/** `GET …/quota/packages`: largest first, paginated with X-Total-Count and Link. */
export function listQuotaPackages(c: AppContext, ownerId: number, query: v.InferOutput<typeof listQuery>) {
  return pagedJson(
    c,
    query,
    (page) => c.get("services").quota.listUsedPackages(ownerId, page, scopeOf(c)),
    (item) => toApiQuotaUsedPackage(item, c.get("settings")),
  );
}

/** `GET …/quota/artifacts`: largest first, paginated with X-Total-Count and Link. */
export function listQuotaArtifacts(c: AppContext, ownerId: number, query: v.InferOutput<typeof listQuery>) {
  return pagedJson(
    c,
    query,
    (page) => c.get("services").quota.listUsedArtifacts(ownerId, page, scopeOf(c)),
    (item) => toApiQuotaUsedArtifact(item, c.get("settings")),
  );
}
