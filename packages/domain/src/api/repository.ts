import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";
import { User } from "./user.js";

/** The caller's rights on a repository, as Forgejo's `Permission`. */
export const Permission = v.object({
  admin: v.boolean(),
  push: v.boolean(),
  pull: v.boolean(),
});

/** Forgejo's `InternalTracker`. */
export const InternalTracker = v.object({
  enable_time_tracker: v.boolean(),
  allow_only_contributors_to_track_time: v.boolean(),
  enable_issue_dependencies: v.boolean(),
});

/** A repository, as Forgejo's `Repository`. */
export const Repository = v.object({
  id: int64(),
  owner: User,
  name: v.string(),
  full_name: v.string(),
  description: v.string(),
  empty: v.boolean(),
  private: v.boolean(),
  fork: v.boolean(),
  template: v.boolean(),
  parent: v.optional(v.nullable(v.looseObject({ id: int64(), full_name: v.string() }))),
  mirror: v.boolean(),
  /** Size in KiB, as Forgejo reports it (git and LFS). */
  size: int64(),
  language: v.string(),
  languages_url: v.string(),
  html_url: v.string(),
  url: v.string(),
  link: v.string(),
  ssh_url: v.string(),
  clone_url: v.string(),
  original_url: v.string(),
  website: v.string(),
  stars_count: int64(),
  forks_count: int64(),
  watchers_count: int64(),
  open_issues_count: int64(),
  open_pr_counter: int64(),
  release_counter: int64(),
  default_branch: v.string(),
  archived: v.boolean(),
  created_at: dateTime(),
  updated_at: dateTime(),
  archived_at: dateTime(),
  permissions: v.optional(Permission),
  has_issues: v.boolean(),
  internal_tracker: v.optional(InternalTracker),
  has_wiki: v.boolean(),
  wiki_branch: v.string(),
  globally_editable_wiki: v.boolean(),
  has_pull_requests: v.boolean(),
  has_projects: v.boolean(),
  has_releases: v.boolean(),
  has_packages: v.boolean(),
  has_actions: v.boolean(),
  ignore_whitespace_conflicts: v.boolean(),
  allow_merge_commits: v.boolean(),
  allow_rebase: v.boolean(),
  allow_rebase_explicit: v.boolean(),
  allow_squash_merge: v.boolean(),
  allow_fast_forward_only_merge: v.boolean(),
  allow_rebase_update: v.boolean(),
  default_delete_branch_after_merge: v.boolean(),
  default_merge_style: v.string(),
  default_allow_maintainer_edit: v.boolean(),
  default_update_style: v.string(),
  avatar_url: v.string(),
  internal: v.boolean(),
  mirror_interval: v.string(),
  object_format_name: v.string(),
  mirror_updated: dateTime(),
  topics: v.array(v.string()),
});
