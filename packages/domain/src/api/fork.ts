import * as v from "valibot";
import { int64 } from "./primitives.js";

/** Body of `POST /repos/{owner}/{repo}/forks` (Forgejo's CreateForkOption). */
export const CreateForkOption = v.object({
  /** Organization name, if forking into an organization. */
  organization: v.nullish(v.pipe(v.string(), v.maxLength(255))),
  /** Name of the forked repository (the parent's name when absent). */
  name: v.nullish(v.pipe(v.string(), v.maxLength(100))),
});

/** Body of `POST /repos/{template_owner}/{template_repo}/generate` (Forgejo's GenerateRepoOption). */
export const GenerateRepoOption = v.object({
  /** The organization or person who will own the new repository. */
  owner: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  /** Name of the repository to create. */
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  description: v.optional(v.pipe(v.string(), v.maxLength(2048))),
  private: v.optional(v.boolean()),
  default_branch: v.optional(v.pipe(v.string(), v.maxLength(100))),
  /** Include the git content of the template's default branch. */
  git_content: v.optional(v.boolean()),
  topics: v.optional(v.boolean()),
  git_hooks: v.optional(v.boolean()),
  webhooks: v.optional(v.boolean()),
  avatar: v.optional(v.boolean()),
  labels: v.optional(v.boolean()),
  protected_branch: v.optional(v.boolean()),
});

/** Where a branch of a fork stands against its parent's (Forgejo's SyncForkInfo). */
export const SyncForkInfo = v.object({
  allowed: v.boolean(),
  commits_behind: int64(),
  base_commit: v.string(),
  fork_commit: v.string(),
});
