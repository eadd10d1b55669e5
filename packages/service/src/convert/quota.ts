import type {
  api,
  QuotaGroupRecord,
  QuotaRuleRecord,
  QuotaUsedArtifact,
  QuotaUsedAttachment,
  QuotaUsedPackage,
  Settings,
} from "@kiln/domain";
import type { QuotaUsage } from "@kiln/quota";
import type * as v from "valibot";
import type { QuotaInfoData } from "../quota/quota-service.js";

/**
 * Quota entities in Forgejo's shapes (services/convert/quota.go). Names of rules and groups are
 * shown on admin views only (`withNames`); empty subject lists are omitted, as Go's omitempty.
 */
export function toApiQuotaRule(
  rule: QuotaRuleRecord,
  withNames: boolean,
): v.InferOutput<typeof api.QuotaRuleInfo> {
  return {
    ...(withNames && rule.name ? { name: rule.name } : {}),
    limit: rule.limit,
    ...(rule.subjects.length > 0 ? { subjects: [...rule.subjects] } : {}),
  };
}

export function toApiQuotaGroup(
  group: QuotaGroupRecord,
  withNames: boolean,
): v.InferOutput<typeof api.QuotaGroup> {
  return {
    ...(withNames && group.name ? { name: group.name } : {}),
    rules: group.rules.map((r) => toApiQuotaRule(r, withNames)),
  };
}

/** Usage by leaf counter, in Forgejo's nesting (note the capital `LFS`). */
export function toApiQuotaUsed(usage: QuotaUsage): v.InferOutput<typeof api.QuotaUsed> {
  return {
    size: {
      repos: { public: usage.reposPublic, private: usage.reposPrivate },
      git: { LFS: usage.lfs },
      assets: {
        attachments: { issues: usage.issueAttachments, releases: usage.releaseAttachments },
        artifacts: usage.artifacts,
        packages: { all: usage.packages },
      },
    },
  };
}

export function toApiQuotaInfo(info: QuotaInfoData, withNames: boolean): v.InferOutput<typeof api.QuotaInfo> {
  return { used: toApiQuotaUsed(info.usage), groups: info.groups.map((g) => toApiQuotaGroup(g, withNames)) };
}

const apiUrl = (settings: Settings, path: string) =>
  `${settings.server.rootUrl}api/v1/${path.replace(/^\//, "")}`;
const htmlUrl = (settings: Settings, path: string) => `${settings.server.rootUrl}${path.replace(/^\//, "")}`;

export function toApiQuotaUsedAttachment(
  item: QuotaUsedAttachment,
  settings: Settings,
): v.InferOutput<typeof api.QuotaUsedAttachment> {
  return {
    name: item.name,
    size: item.size,
    api_url: apiUrl(settings, item.apiPath),
    contained_in: {
      api_url: apiUrl(settings, item.containedIn.apiPath),
      html_url: htmlUrl(settings, item.containedIn.htmlPath),
    },
  };
}

export function toApiQuotaUsedPackage(
  item: QuotaUsedPackage,
  settings: Settings,
): v.InferOutput<typeof api.QuotaUsedPackage> {
  return {
    name: item.name,
    type: item.type,
    version: item.version,
    size: item.size,
    html_url: htmlUrl(settings, item.htmlPath),
  };
}

export function toApiQuotaUsedArtifact(
  item: QuotaUsedArtifact,
  settings: Settings,
): v.InferOutput<typeof api.QuotaUsedArtifact> {
  return { name: item.name, size: item.size, html_url: htmlUrl(settings, item.htmlPath) };
}
