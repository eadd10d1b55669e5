import { type api, formatTime, type Label, type Milestone, type Settings } from "@kiln/domain";
import type * as v from "valibot";

/** Where a label of a repository or an organization lives in the API. */
export type LabelHome = { readonly apiRepo: string } | { readonly orgName: string };

/**
 * Forgejo's `Label`: the color without `#`, `is_archived` from the archive date, and the URL of
 * the label under its repository or organization.
 */
export function toApiLabel(
  label: Label,
  home: LabelHome,
  settings: Settings,
): v.InferOutput<typeof api.Label> {
  const url =
    "apiRepo" in home
      ? `${home.apiRepo}/labels/${label.id}`
      : `${settings.server.rootUrl}api/v1/orgs/${encodeURIComponent(home.orgName)}/labels/${label.id}`;
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedAt !== null,
    color: label.color.replace(/^#/, ""),
    description: label.description,
    url,
  };
}

/** Forgejo's `Milestone`: open issues are all minus closed; `closed_at` only while closed. */
export function toApiMilestone(milestone: Milestone): v.InferOutput<typeof api.Milestone> {
  return {
    id: milestone.id,
    title: milestone.name,
    description: milestone.content,
    state: milestone.isClosed ? "closed" : "open",
    open_issues: milestone.numIssues - milestone.numClosedIssues,
    closed_issues: milestone.numClosedIssues,
    created_at: formatTime(milestone.createdAt),
    updated_at: formatTime(milestone.updatedAt),
    closed_at: milestone.isClosed && milestone.closedAt ? formatTime(milestone.closedAt) : null,
    due_on: milestone.deadline ? formatTime(milestone.deadline) : null,
  };
}
