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
  repo_transfer: v.optional(
    v.nullable(
      v.looseObject({
        doer: v.looseObject({ login: v.string() }),
        recipient: v.looseObject({ login: v.string() }),
      }),
    ),
  ),
});

/** A pending transfer, as Forgejo's `RepoTransfer`. */
export const RepoTransfer = v.object({
  doer: User,
  recipient: User,
  teams: v.array(v.looseObject({ id: int64(), name: v.string() })),
});

/** Body of `POST /user/repos` and `POST /orgs/{org}/repos`. */
export const CreateRepoOption = v.object({
  name: v.pipe(v.string(), v.maxLength(100)),
  description: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  private: v.optional(v.boolean()),
  auto_init: v.optional(v.boolean()),
  default_branch: v.optional(v.string()),
  template: v.optional(v.boolean()),
  readme: v.optional(v.string()),
  issue_labels: v.optional(v.pipe(v.string(), v.maxLength(255))),
  gitignores: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  license: v.optional(v.pipe(v.string(), v.maxLength(255))),
  trust_model: v.optional(v.picklist(["default", "collaborator", "committer", "collaboratorcommitter"])),
  object_format_name: v.optional(v.picklist(["sha1", "sha256"])),
});

/** Body of `PATCH /repos/{owner}/{repo}`; Kiln applies the fields it keeps and accepts the others. */
export const EditRepoOption = v.looseObject({
  name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  description: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  website: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  private: v.optional(v.boolean()),
  template: v.optional(v.boolean()),
  archived: v.optional(v.boolean()),
  default_branch: v.optional(v.string()),
  allow_merge_commits: v.nullish(v.boolean()),
  allow_rebase: v.nullish(v.boolean()),
  allow_rebase_explicit: v.nullish(v.boolean()),
  allow_squash_merge: v.nullish(v.boolean()),
  allow_fast_forward_only_merge: v.nullish(v.boolean()),
  allow_manual_merge: v.nullish(v.boolean()),
  autodetect_manual_merge: v.nullish(v.boolean()),
  allow_rebase_update: v.nullish(v.boolean()),
  default_delete_branch_after_merge: v.nullish(v.boolean()),
  default_merge_style: v.nullish(
    v.picklist(["merge", "rebase", "rebase-merge", "squash", "fast-forward-only"]),
  ),
  default_allow_maintainer_edit: v.nullish(v.boolean()),
  ignore_whitespace_conflicts: v.nullish(v.boolean()),
  mirror_interval: v.nullish(v.pipe(v.string(), v.maxLength(64))),
  enable_prune: v.nullish(v.boolean()),
});

/** Body of `POST /repos/{owner}/{repo}/transfer`. */
export const TransferRepoOption = v.object({
  new_owner: v.string(),
  team_ids: v.optional(v.array(int64())),
});

/** Body of `POST /repos/migrate`. */
export const MigrateRepoOptions = v.object({
  clone_addr: v.string(),
  repo_name: v.pipe(v.string(), v.maxLength(100)),
  repo_owner: v.optional(v.string()),
  uid: v.optional(int64()),
  description: v.optional(v.string()),
  private: v.optional(v.boolean()),
  mirror: v.optional(v.boolean()),
  mirror_interval: v.optional(v.pipe(v.string(), v.maxLength(64))),
  service: v.optional(
    v.picklist(["git", "github", "gitea", "gitlab", "gogs", "onedev", "gitbucket", "codebase", "forgejo"]),
  ),
  auth_username: v.optional(v.string()),
  auth_password: v.optional(v.string()),
  auth_token: v.optional(v.string()),
  wiki: v.optional(v.boolean()),
  milestones: v.optional(v.boolean()),
  labels: v.optional(v.boolean()),
  issues: v.optional(v.boolean()),
  pull_requests: v.optional(v.boolean()),
  releases: v.optional(v.boolean()),
  lfs: v.optional(v.boolean()),
  lfs_endpoint: v.optional(v.string()),
});

/** Body of `PUT /repos/{owner}/{repo}/collaborators/{collaborator}`. */
export const AddCollaboratorOption = v.object({
  permission: v.optional(v.picklist(["read", "write", "admin"])),
});

/** A user's permission on a repository (`GET …/collaborators/{collaborator}/permission`). */
export const RepoCollaboratorPermission = v.object({
  permission: v.string(),
  role_name: v.string(),
  user: User,
});

/** Forgejo's `SearchResults` of `GET /repos/search`. */
export const SearchResults = v.object({
  ok: v.boolean(),
  data: v.array(Repository),
});
