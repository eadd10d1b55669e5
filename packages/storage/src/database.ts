import type {
  AccessMode,
  AccountType,
  CollaboratorMode,
  PullsConfig,
  RepoUnit,
  Visibility,
} from "@kiln/domain";
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { ActionTables } from "./database-actions.js";
import type { AttachmentTables } from "./database-attachments.js";
import type { AvatarTables } from "./database-avatars.js";
import type { IssueTables } from "./database-issues.js";
import type { KeyTables } from "./database-keys.js";
import type { MirrorTables } from "./database-mirrors.js";
import type { OAuthTables } from "./database-oauth.js";
import type { PackageTables } from "./database-packages.js";
import type { PeopleTables } from "./database-people.js";
import type { PullTables } from "./database-pulls.js";
import type { RefUpdateTables } from "./database-ref-updates.js";
import type { SocialTables } from "./database-social.js";
import type { WebhookTables } from "./database-webhooks.js";

/** Timestamps default to now() in the database and are set explicitly on update. */
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

/** Users and organizations (one table, as in Forgejo, so that "owner" is one foreign key). */
export interface UsersTable {
  id: Generated<number>;
  type: ColumnType<AccountType, AccountType | undefined, never>;
  name: string;
  lowerName: string;
  fullName: Generated<string>;
  email: Generated<string>;
  keepEmailPrivate: Generated<boolean>;
  /** PHC-formatted password hash; empty for organizations and accounts without a password. */
  passwd: Generated<string>;
  mustChangePassword: Generated<boolean>;
  loginName: Generated<string>;
  loginSource: Generated<number>;
  isAdmin: Generated<boolean>;
  isActive: Generated<boolean>;
  isRestricted: Generated<boolean>;
  prohibitLogin: Generated<boolean>;
  visibility: ColumnType<Visibility, Visibility | undefined, Visibility>;
  location: Generated<string>;
  website: Generated<string>;
  description: Generated<string>;
  pronouns: Generated<string>;
  language: Generated<string>;
  theme: Generated<string>;
  diffViewStyle: Generated<string>;
  hideActivity: Generated<boolean>;
  hidePronouns: Generated<boolean>;
  enableRepoUnitHints: Generated<boolean>;
  maxRepoCreation: Generated<number>;
  allowCreateOrganization: Generated<boolean>;
  allowGitHook: Generated<boolean>;
  allowImportLocal: Generated<boolean>;
  repoAdminChangeTeamAccess: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  lastLoginAt: Date | null;
  /** Followers, users followed and repositories starred, recounted with each change (migration 0015). */
  numFollowers: Generated<number>;
  numFollowing: Generated<number>;
  numStars: Generated<number>;
  /** The uploaded avatar's hash, empty when none (migration 0020). */
  avatar: Generated<string>;
}

/** Every e-mail address of a user; lower_email is unique across the instance. */
export interface EmailAddressTable {
  id: Generated<number>;
  userId: number;
  email: string;
  lowerEmail: string;
  isActivated: Generated<boolean>;
  isPrimary: Generated<boolean>;
}

/** Personal access tokens: a SHA-256 of the secret, never the secret. */
export interface AccessTokenTable {
  id: Generated<number>;
  userId: number;
  name: string;
  tokenHash: string;
  tokenLastEight: string;
  scope: string;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** TOTP enrolment of a user (secret encrypted with the instance's SECRET_KEY). */
export interface TwoFactorTable {
  userId: number;
  secret: string;
  lastUsedPasscode: string | null;
  /** Failed second-factor attempts since the last success or lock (migration 0024). */
  failedAttempts: Generated<number>;
  lockedUntil: Date | null;
  createdAt: CreatedAt;
}

/** Membership of a user in an organization; `isPublic` shows it to non-members. */
export interface OrgUserTable {
  id: Generated<number>;
  orgId: number;
  userId: number;
  isPublic: Generated<boolean>;
}

/** A team; `units` maps repository units to access modes. */
export interface TeamTable {
  id: Generated<number>;
  orgId: number;
  name: string;
  lowerName: string;
  description: Generated<string>;
  accessMode: ColumnType<AccessMode, AccessMode | undefined, AccessMode>;
  units: ColumnType<Partial<Record<RepoUnit, AccessMode>>, string | undefined, string>;
  includesAllRepositories: Generated<boolean>;
  canCreateOrgRepo: Generated<boolean>;
  createdAt: CreatedAt;
}

export interface TeamUserTable {
  id: Generated<number>;
  teamId: number;
  orgId: number;
  userId: number;
}

export interface TeamRepoTable {
  id: Generated<number>;
  teamId: number;
  orgId: number;
  repoId: number;
}

/** Repositories; `ownerName` is denormalised for URLs, as in Forgejo. */
export interface RepositoryTable {
  id: Generated<number>;
  ownerId: number;
  ownerName: string;
  name: string;
  lowerName: string;
  description: Generated<string>;
  website: Generated<string>;
  defaultBranch: Generated<string>;
  isPrivate: Generated<boolean>;
  isEmpty: Generated<boolean>;
  isArchived: Generated<boolean>;
  isMirror: Generated<boolean>;
  isTemplate: Generated<boolean>;
  isFork: Generated<boolean>;
  forkId: number | null;
  /** Forks of this repository and the template it came from (migration 0026). */
  numForks: Generated<number>;
  templateId: number | null;
  gitSize: Generated<number>;
  lfsSize: Generated<number>;
  originalUrl: Generated<string>;
  numIssues: Generated<number>;
  numClosedIssues: Generated<number>;
  numPulls: Generated<number>;
  numClosedPulls: Generated<number>;
  numMilestones: Generated<number>;
  numClosedMilestones: Generated<number>;
  /** Watchers (watch modes 1 and 3) and stars, recounted with each change (migration 0015). */
  numWatches: Generated<number>;
  numStars: Generated<number>;
  /** Pull request settings (allowed merge styles and defaults), every key present. */
  pullsConfig: ColumnType<PullsConfig, string | undefined, string>;
  /** The repository's topics in the order they were set (migration 0022). */
  topics: ColumnType<string[], string | undefined, string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  /** The uploaded avatar's hash, empty when none (migration 0020). */
  avatar: Generated<string>;
}

/** A topic name used by at least one repository once (migration 0022). */
export interface TopicTable {
  id: Generated<number>;
  name: string;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A status reported on a commit (migration 0023). */
export interface CommitStatusTable {
  id: Generated<number>;
  repoId: number;
  sha: string;
  index: number;
  state: string;
  targetUrl: Generated<string>;
  description: Generated<string>;
  context: Generated<string>;
  creatorId: number | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A repository carrying a topic. */
export interface RepoTopicTable {
  repoId: number;
  topicId: number;
}

/** A flag a site administrator put on a repository (migration 0030). */
export interface RepoFlagTable {
  id: Generated<number>;
  repoId: number;
  name: string;
  createdAt: CreatedAt;
}

/** An LFS object a repository references (objects themselves are content-addressed on disk). */
export interface LfsMetaObjectTable {
  id: Generated<number>;
  repoId: number;
  oid: string;
  size: number;
  createdAt: CreatedAt;
}

/** A Git LFS file lock: a path of a repository locked by one user (migration 0038). */
export interface LfsLockTable {
  id: Generated<number>;
  repoId: number;
  ownerId: number;
  path: string;
  createdAt: CreatedAt;
}

/** A branch protection rule; `settings` holds the options (whitelists as user and team ids). */
export interface ProtectedBranchTable {
  id: Generated<number>;
  repoId: number;
  ruleName: string;
  priority: Generated<number>;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A tag protection rule (Forgejo's ProtectedTag): allowlists by user and team id. */
export interface ProtectedTagTable {
  id: Generated<number>;
  repoId: number;
  namePattern: string;
  allowlistUserIds: ColumnType<number[], string | undefined, string>;
  allowlistTeamIds: ColumnType<number[], string | undefined, string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A transfer of a repository waiting for the recipient to accept it. */
export interface RepoTransferTable {
  id: Generated<number>;
  repoId: number;
  doerId: number;
  recipientId: number;
  teamIds: ColumnType<number[], string | undefined, string>;
  createdAt: CreatedAt;
}

export interface CollaborationTable {
  id: Generated<number>;
  repoId: number;
  userId: number;
  mode: CollaboratorMode;
}

/** Per-owner counters of the leaf quota subjects, in bytes. */
export interface QuotaUsageTable {
  ownerId: number;
  reposPublic: Generated<number>;
  reposPrivate: Generated<number>;
  lfs: Generated<number>;
  issueAttachments: Generated<number>;
  releaseAttachments: Generated<number>;
  artifacts: Generated<number>;
  packages: Generated<number>;
  /** Bytes of the owner's repositories' wikis (`size:wiki`, migration 0025). */
  wiki: Generated<number>;
}

/** Quota rules: subjects (jsonb array) in the spelling they were created with. */
export interface QuotaRuleTable {
  id: Generated<number>;
  name: string;
  limit: number;
  subjects: ColumnType<string[], string | undefined, string>;
}

export interface QuotaGroupTable {
  id: Generated<number>;
  name: string;
}

/** The rules of a group; `id` keeps the order in which they were added. */
export interface QuotaGroupRuleTable {
  id: Generated<number>;
  groupId: number;
  ruleId: number;
}

/** The groups assigned to an owner (user or organization). */
export interface QuotaGroupOwnerTable {
  id: Generated<number>;
  groupId: number;
  ownerId: number;
}

/** The whole schema, as Kysely sees it (camelCase here, snake_case in SQL). */
export interface Database
  extends AttachmentTables,
    IssueTables,
    PullTables,
    PackageTables,
    ActionTables,
    SocialTables,
    WebhookTables,
    MirrorTables,
    KeyTables,
    OAuthTables,
    PeopleTables,
    RefUpdateTables,
    AvatarTables {
  users: UsersTable;
  emailAddress: EmailAddressTable;
  accessToken: AccessTokenTable;
  twoFactor: TwoFactorTable;
  orgUser: OrgUserTable;
  team: TeamTable;
  teamUser: TeamUserTable;
  teamRepo: TeamRepoTable;
  repository: RepositoryTable;
  collaboration: CollaborationTable;
  quotaUsage: QuotaUsageTable;
  quotaRule: QuotaRuleTable;
  quotaGroup: QuotaGroupTable;
  quotaGroupRule: QuotaGroupRuleTable;
  quotaGroupOwner: QuotaGroupOwnerTable;
  lfsMetaObject: LfsMetaObjectTable;
  lfsLock: LfsLockTable;
  protectedBranch: ProtectedBranchTable;
  repoTransfer: RepoTransferTable;
  topic: TopicTable;
  repoTopic: RepoTopicTable;
  repoFlag: RepoFlagTable;
  commitStatus: CommitStatusTable;
  repoWiki: RepoWikiTable;
  protectedTag: ProtectedTagTable;
}

/** A repository's wiki once it exists on disk: its size in bytes, as last measured (migration 0025). */
export interface RepoWikiTable {
  repoId: number;
  size: Generated<number>;
}

/** The database handle every query takes: the instance or an open transaction. */
export type Db = Kysely<Database> | Transaction<Database>;

/** The instance-wide handle (not a transaction): services open transactions on it. */
export type KilnDb = Kysely<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type EmailAddressRow = Selectable<EmailAddressTable>;
export type AccessTokenRow = Selectable<AccessTokenTable>;
export type TwoFactorRow = Selectable<TwoFactorTable>;
export type RepositoryRow = Selectable<RepositoryTable>;
export type NewRepositoryRow = Insertable<RepositoryTable>;
export type RepositoryUpdate = Updateable<RepositoryTable>;
export type TeamRow = Selectable<TeamTable>;
export type QuotaUsageRow = Selectable<QuotaUsageTable>;
export type ProtectedBranchRow = Selectable<ProtectedBranchTable>;
export type RepoTransferRow = Selectable<RepoTransferTable>;
export type ProtectedTagRow = Selectable<ProtectedTagTable>;
