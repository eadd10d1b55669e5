import { type api, formatTime, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { IssueView } from "../issues/issue-views.js";
import { repoLinks } from "./git.js";
import { toApiLabel, toApiMilestone } from "./label.js";
import { anonymousSight, toApiUser } from "./user.js";

/** Forgejo's Ghost user: who a deleted account's issues and comments are shown as. */
export function ghostUser(settings: Settings): v.InferOutput<typeof api.User> {
  return {
    id: -1,
    login: "Ghost",
    login_name: "",
    source_id: 0,
    full_name: "",
    email: `ghost@noreply.${new URL(settings.server.rootUrl).hostname}`,
    avatar_url: `${settings.server.rootUrl}assets/img/avatar_default.png`,
    html_url: `${settings.server.rootUrl}Ghost`,
    language: "",
    is_admin: false,
    last_login: formatTime(new Date(0)),
    created: formatTime(new Date(0)),
    restricted: false,
    active: false,
    prohibit_login: false,
    location: "",
    pronouns: "",
    website: "",
    description: "",
    visibility: "public",
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: "Ghost",
  };
}

/** A user, or the Ghost user for an account that is gone. */
export function apiUserOrGhost(user: User | null, sight: AccountSight, settings: Settings) {
  return user ? toApiUser(user, sight, settings) : ghostUser(settings);
}

/**
 * Forgejo's `Issue` (services/convert.ToAPIIssue): the poster as the viewer may see them,
 * labels by name with their repository or organization URL, `assignees` null when there are
 * none (and shown without e-mail addresses, as Forgejo does), `url` under `/issues/` for pull
 * requests too.
 */
export function toApiIssue(
  view: IssueView,
  sight: AccountSight,
  settings: Settings,
  assets: v.InferOutput<typeof api.Issue>["assets"] = [],
): v.InferOutput<typeof api.Issue> {
  const { issue, repo } = view;
  const links = repoLinks(repo, settings);
  // Forgejo shows assignees with no viewer (ToUser with a nil doer), whoever reads them.
  const assignees = view.assignees.map((user) => toApiUser(user, anonymousSight, settings));
  return {
    id: issue.id,
    url: `${links.api}/issues/${issue.index}`,
    html_url: `${links.html}/${issue.isPull ? "pulls" : "issues"}/${issue.index}`,
    number: issue.index,
    user: apiUserOrGhost(view.poster, sight, settings),
    original_author: "",
    original_author_id: 0,
    title: issue.title,
    body: issue.content,
    ref: issue.ref,
    assets: [...assets],
    labels: view.labels.map((label) =>
      toApiLabel(
        label,
        label.orgId !== null ? { orgName: repo.ownerName } : { apiRepo: links.api },
        settings,
      ),
    ),
    milestone: view.milestone ? toApiMilestone(view.milestone) : null,
    assignee: assignees[0] ?? null,
    assignees: assignees.length > 0 ? assignees : null,
    state: issue.isClosed ? "closed" : "open",
    is_locked: issue.isLocked,
    comments: issue.numComments,
    created_at: formatTime(issue.createdAt),
    updated_at: formatTime(issue.updatedAt),
    closed_at: issue.isClosed && issue.closedAt ? formatTime(issue.closedAt) : null,
    due_date: issue.deadline ? formatTime(issue.deadline) : null,
    pull_request: issue.isPull
      ? {
          merged: false,
          merged_at: null,
          draft: /^\s*(wip|\[wip\])[\s:]/i.test(issue.title),
          html_url: `${links.html}/pulls/${issue.index}`,
        }
      : null,
    repository: {
      id: repo.id,
      name: repo.name,
      owner: repo.ownerName,
      full_name: `${repo.ownerName}/${repo.name}`,
    },
    pin_order: issue.pinOrder,
  };
}
