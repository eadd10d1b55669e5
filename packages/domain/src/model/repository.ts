import type { PullsConfig } from "./pull.js";

/** A repository as stored. Sizes are those recorded in the database (the quota ledger counts them). */
export interface Repository {
  readonly id: number;
  readonly ownerId: number;
  readonly ownerName: string;
  readonly name: string;
  readonly lowerName: string;
  readonly description: string;
  readonly website: string;
  readonly defaultBranch: string;
  readonly isPrivate: boolean;
  readonly isEmpty: boolean;
  readonly isArchived: boolean;
  readonly isMirror: boolean;
  readonly isTemplate: boolean;
  readonly isFork: boolean;
  readonly forkId: number | null;
  /** Forks of this repository (migration 0026), recounted with each fork created or deleted. */
  readonly numForks?: number;
  /** The template this repository was generated from, if any (migration 0026). */
  readonly templateId?: number | null;
  /** Bytes of the bare git repository on disk (Forgejo's git_size). */
  readonly gitSize: number;
  /** Bytes of the LFS objects the repository references. */
  readonly lfsSize: number;
  /** For mirrors and migrated repositories: where they were cloned from. */
  readonly originalUrl: string;
  /** Issues and pull requests, all and closed (recounted with every change). */
  readonly numIssues: number;
  readonly numClosedIssues: number;
  readonly numPulls: number;
  readonly numClosedPulls: number;
  /** Watchers (watch modes normal and auto) and stars (recounted with every change). */
  readonly numWatches: number;
  readonly numStars: number;
  /** Pull request settings: allowed merge styles and their defaults. */
  readonly pullsConfig: PullsConfig;
  /** Topics, in the order they were set (lower-case, validated as Forgejo does). */
  readonly topics: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** The uploaded avatar's hash (`/repo-avatars/<hash>`), empty when none was uploaded (migration 0020). */
  readonly avatar?: string;
}

/** A collaborator's mode on a repository. */
export type CollaboratorMode = "read" | "write" | "admin";

/** Orders of repository lists: Forgejo's `order_by` values plus `id`, the default (stable paging). */
export const REPO_ORDERS = [
  "id",
  "name",
  "alphabetically",
  "reversealphabetically",
  "newest",
  "oldest",
  "recentupdate",
  "leastupdate",
  "size",
  "reversesize",
  "gitsize",
  "reversegitsize",
  "lfssize",
  "reverselfssize",
  "moststars",
  "feweststars",
  "mostforks",
  "fewestforks",
] as const;

export type RepoOrder = (typeof REPO_ORDERS)[number];
