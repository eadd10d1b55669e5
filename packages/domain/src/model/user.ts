/** Who can see an account: everyone, signed-in users only, or members/self only. */
export type Visibility = "public" | "limited" | "private";

/** An account is an individual user or an organization; both own repositories and quota usage. */
export type AccountType = "individual" | "organization";

/** A user or organization as stored. Password material never leaves storage and the auth service. */
export interface User {
  readonly id: number;
  readonly type: AccountType;
  readonly name: string;
  readonly lowerName: string;
  readonly fullName: string;
  readonly email: string;
  readonly keepEmailPrivate: boolean;
  readonly loginName: string;
  readonly loginSource: number;
  readonly mustChangePassword: boolean;
  readonly isAdmin: boolean;
  readonly isActive: boolean;
  readonly isRestricted: boolean;
  readonly prohibitLogin: boolean;
  readonly visibility: Visibility;
  readonly location: string;
  readonly website: string;
  readonly description: string;
  readonly pronouns: string;
  readonly language: string;
  readonly theme: string;
  readonly diffViewStyle: string;
  readonly hideActivity: boolean;
  readonly hidePronouns: boolean;
  readonly enableRepoUnitHints: boolean;
  readonly maxRepoCreation: number;
  readonly allowCreateOrganization: boolean;
  readonly allowGitHook: boolean;
  readonly allowImportLocal: boolean;
  /** Organizations only: whether repository admins may change which teams access a repository. */
  readonly repoAdminChangeTeamAccess: boolean;
  /** Followers, accounts followed and repositories starred (recounted with every change). */
  readonly numFollowers: number;
  readonly numFollowing: number;
  readonly numStars: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly lastLoginAt: Date | null;
  /** The uploaded avatar's hash (`/avatars/<hash>`), empty when none was uploaded (migration 0020). */
  readonly avatar?: string;
}

/** Names Forgejo reserves for its own routes; no account may take them. */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  ".",
  "..",
  ".well-known",
  "admin",
  "api",
  "assets",
  "attachments",
  "avatar",
  "avatars",
  "captcha",
  "commits",
  "debug",
  "devtest",
  "error",
  "explore",
  "favicon.ico",
  "ghost",
  "issues",
  "login",
  "manifest.json",
  "metrics",
  "milestones",
  "new",
  "notifications",
  "org",
  "pulls",
  "raw",
  "repo",
  "repo-avatars",
  "robots.txt",
  "search",
  "serviceworker.js",
  "ssh_info",
  "swagger.v1.json",
  "user",
  "v2",
  "gitea-actions",
  "forgejo-actions",
]);

/** Forgejo's username rule: alphanumerics, dash, underscore and dot; no leading/trailing or double punctuation. */
export const USERNAME_PATTERN = /^[\da-zA-Z](?:[\da-zA-Z]|[-_.](?=[\da-zA-Z]))*$/;

/**
 * Why `name` cannot be an account name, in Forgejo's words, or null when it can. Forgejo answers
 * these with 422.
 */
export function usernameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 40 || !USERNAME_PATTERN.test(name)) {
    return `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`;
  }
  if (RESERVED_USERNAMES.has(name.toLowerCase())) return `name is reserved [name: ${name}]`;
  const suffix = RESERVED_USERNAME_SUFFIXES.find((s) => name.toLowerCase().endsWith(s));
  if (suffix) return `name pattern is not allowed [pattern: *${suffix}]`;
  return null;
}

/** Forgejo's reserved name patterns (`*.keys`, …): they collide with its feed and key routes. */
const RESERVED_USERNAME_SUFFIXES = [".keys", ".gpg", ".rss", ".atom", ".png"];
