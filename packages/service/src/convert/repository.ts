import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { RepoPermissionView } from "../access/repo-rules.js";
import { formatInterval } from "../mirrors/go-duration.js";
import type { PullMirrorView } from "../mirrors/pull-mirror-service.js";
import { repoAvatarUrl, toApiUser } from "./user.js";

/** Forgejo's zero time, for times that never happened. */
const NEVER = formatTime(new Date(0));

/**
 * A repository as Forgejo's `Repository`. `permissions` are the viewer's, as the access module's
 * `repoPermissionView` decided them (absent when not asked for); `size` is in KiB of git
 * plus LFS data, as Forgejo reports it. Kiln serves no SSH, so `ssh_url` is empty.
 */
export function toApiRepository(
  repo: Repository,
  owner: User,
  sight: AccountSight,
  permissions: RepoPermissionView | undefined,
  settings: Settings,
): v.InferOutput<typeof api.Repository> {
  const root = settings.server.rootUrl;
  const fullName = `${owner.name}/${repo.name}`;
  const apiUrl = `${root}api/v1/repos/${fullName}`;
  return {
    id: repo.id,
    owner: toApiUser(owner, sight, settings),
    name: repo.name,
    full_name: fullName,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    parent: null,
    mirror: repo.isMirror,
    size: Math.floor((repo.gitSize + repo.lfsSize) / 1024),
    language: "",
    languages_url: `${apiUrl}/languages`,
    html_url: `${root}${fullName}`,
    url: apiUrl,
    link: "",
    ssh_url: "",
    clone_url: `${root}${fullName}.git`,
    original_url: "",
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks ?? 0,
    watchers_count: repo.numWatches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: 0,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: formatTime(repo.createdAt),
    updated_at: formatTime(repo.updatedAt),
    archived_at: NEVER,
    ...(permissions ? { permissions: { ...permissions } } : {}),
    has_issues: true,
    internal_tracker: {
      enable_time_tracker: true,
      allow_only_contributors_to_track_time: true,
      enable_issue_dependencies: true,
    },
    has_wiki: true,
    wiki_branch: repo.defaultBranch,
    globally_editable_wiki: false,
    has_pull_requests: true,
    has_projects: true,
    has_releases: true,
    has_packages: true,
    has_actions: true,
    ignore_whitespace_conflicts: repo.pullsConfig.ignoreWhitespaceConflicts,
    allow_merge_commits: repo.pullsConfig.allowMergeCommits,
    allow_rebase: repo.pullsConfig.allowRebase,
    allow_rebase_explicit: repo.pullsConfig.allowRebaseExplicit,
    allow_squash_merge: repo.pullsConfig.allowSquashMerge,
    allow_fast_forward_only_merge: repo.pullsConfig.allowFastForwardOnlyMerge,
    allow_rebase_update: repo.pullsConfig.allowRebaseUpdate,
    default_delete_branch_after_merge: repo.pullsConfig.defaultDeleteBranchAfterMerge,
    default_merge_style: repo.pullsConfig.defaultMergeStyle,
    default_allow_maintainer_edit: repo.pullsConfig.defaultAllowMaintainerEdit,
    default_update_style: "merge",
    avatar_url: repoAvatarUrl(repo, settings),
    internal: false,
    mirror_interval: "",
    object_format_name: "sha1",
    mirror_updated: formatTime(new Date(0)),
    topics: [...repo.topics],
  };
}

/** A pull mirror's interval, last sync and address (Forgejo's ToRepo reads them from its mirror row). */
export function withMirror<T extends v.InferOutput<typeof api.Repository>>(
  json: T,
  mirror: PullMirrorView | undefined,
): T {
  if (!mirror) return json;
  return {
    ...json,
    mirror_interval: formatInterval(mirror.intervalMs),
    mirror_updated: formatTime(mirror.updatedAt),
    original_url: mirror.address,
  };
}
