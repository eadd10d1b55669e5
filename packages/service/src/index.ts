export * from "./access/index.js";
export * from "./actions/index.js";
export * from "./admin/index.js";
export * from "./attachments/index.js";
export { AuthService } from "./auth/auth-service.js";
export { hashPassword, verifyPassword } from "./auth/password.js";
export type { Credentials, Principal } from "./auth/principal.js";
export { openSecret, sealSecret } from "./auth/secret-box.js";
export { generateTokenSecret, hashTokenSecret } from "./auth/token-secret.js";
export { currentTotp, generateTotpSecret, validateTotp } from "./auth/totp.js";
export { RECOVERY_CODE_COUNT, TwoFactorService } from "./auth/two-factor-service.js";
export { type SessionData, type WebSession, WebSessionService } from "./auth/web-session-service.js";
export * from "./avatars/index.js";
export { type Logger, type ServiceContext, type ServiceContextInit, silentLogger } from "./context.js";
export * from "./convert/index.js";
export * from "./cron/index.js";
export * from "./events/index.js";
export { type FeedEntry, type FeedQuery, FeedService } from "./feed/feed-service.js";
export { AnnotatedTagService, type AnnotatedTagView } from "./git/annotated-tag-service.js";
export { archiveHeaders, attachmentDisposition } from "./git/archive-headers.js";
export { type ArchiveDownload, ArchiveService } from "./git/archive-service.js";
export { branchDivergence, type Divergence } from "./git/branch-divergence.js";
export {
  assertNotArchived,
  type BranchProtectionInput,
  BranchProtectionService,
  type BranchProtectionView,
} from "./git/branch-protection-service.js";
export { BranchRenameService } from "./git/branch-rename-service.js";
export { BranchService, type BranchView, type CreateBranchInput } from "./git/branch-service.js";
export { type IdentityInput, userSignature } from "./git/commit-identity.js";
export {
  type CommitDetailOptions,
  type CommitEntry,
  CommitService,
  type CommitsView,
  type ListCommitsInput,
} from "./git/commit-service.js";
export {
  COMMIT_STATUS_STATES,
  type CommitStatusState,
  type CommitStatusView,
} from "./git/commit-status-service.js";
export { type CommitUsers, commitUsers } from "./git/commit-users.js";
export {
  type BaseHead,
  CompareService,
  type CompareView,
  MAX_COMPARE_COMMITS,
  parseBaseHead,
} from "./git/compare-service.js";
export {
  type ContentItem,
  ContentService,
  type ContentsRef,
  type ContentsView,
  type RawFile,
} from "./git/content-service.js";
export {
  DEFAULT_DIFF_LIMITS,
  type DiffFile,
  type DiffHunk,
  type DiffLimits,
  type DiffLine,
  type ParsedDiff,
  parseDiff,
} from "./git/diff-parse.js";
export {
  type EditorconfigDefinition,
  EditorconfigService,
  MAX_EDITORCONFIG_SIZE,
} from "./git/editorconfig-service.js";
export { type FileKind, type FileType, fileTypeOf } from "./git/file-kind.js";
export {
  type FileCommitInput,
  type FileCommitResult,
  type FileOperation,
  FileService,
} from "./git/file-service.js";
export { GIT_HOOKS_REFUSED, GitHookService } from "./git/git-hook-service.js";
export { NoteService, type NoteView } from "./git/note-service.js";
export { GitObjectService } from "./git/object-service.js";
export { PatchService } from "./git/patch-service.js";
export {
  type BranchProtectionOptions,
  settingsForCreate,
  settingsForEdit,
  toBranchRulePolicy,
} from "./git/protection-rules.js";
export type { RefKind } from "./git/ref-kind.js";
export { type LfsPointerView, type RefPath, SourceService } from "./git/source-service.js";
export {
  type TagProtectionInput,
  TagProtectionService,
  type TagProtectionView,
} from "./git/tag-protection-service.js";
export { type CreateTagInput, TagService } from "./git/tag-service.js";
export { CommentService, type CommentView } from "./issues/comment-service.js";
export {
  IssueDependencyService,
  type IssueRef,
  MAX_DEPENDENCIES,
} from "./issues/issue-dependency-service.js";
export { IssueEditService } from "./issues/issue-edit-service.js";
export { ISSUE_SORTS, type IssueListQuery, issueSort, parseTime, stateOf } from "./issues/issue-filters.js";
export { IssueLabelService } from "./issues/issue-label-service.js";
export {
  ISSUE_LIST_TYPES,
  type IssueListChoice,
  type IssueListForm,
  type IssueListResult,
  type IssueListType,
  NO_MILESTONE,
  readIssueListForm,
} from "./issues/issue-list-form.js";
export { type IssueSearchQuery, IssueSearchService } from "./issues/issue-search-service.js";
export {
  type CreateIssueInput,
  type EditIssueInput,
  IssueService,
} from "./issues/issue-service.js";
export { IssueStateService, LOCK_REASONS } from "./issues/issue-state-service.js";
export { type IssueConfigResult, IssueTemplateService } from "./issues/issue-template-service.js";
export type { IssueConfig, IssueTemplate } from "./issues/issue-templates.js";
export type { IssueView } from "./issues/issue-views.js";
export { IssueWatchService } from "./issues/issue-watch-service.js";
export { type LabelInput, LabelService, normalizeColor } from "./issues/label-service.js";
export { type MilestoneInput, MilestoneService, parseGoInt } from "./issues/milestone-service.js";
export { ReactionService, type ReactionView } from "./issues/reaction-service.js";
export { TimeService, type TimeWindow, type TrackedTimeView } from "./issues/time-service.js";
export { type TimelineEntry, TimelineService, type TimelineWindow } from "./issues/timeline-service.js";
export { type CommitVerification, CommitVerifier } from "./keys/commit-verifier.js";
export { GpgKeyService } from "./keys/gpg-key-service.js";
export { SshKeyService } from "./keys/ssh-key-service.js";
export * from "./mirrors/index.js";
export * from "./oauth2/index.js";
export {
  lastOwner,
  type MembershipAnswer,
  type OrgInput,
  OrgService,
} from "./orgs/org-service.js";
export { ownershipGuard, type RepositoryRemover } from "./orgs/ownership-guard.js";
export { type TeamInput, TeamService } from "./orgs/team-service.js";
export { checkGenericNames } from "./packages/generic.js";
export { type FileHashes, hashedBody } from "./packages/hashed-body.js";
export { isNpmName } from "./packages/npm/npm-package.js";
export { INVALID_TAG, NPM_DOCUMENT_LIMIT, NPM_TAG, NpmService } from "./packages/npm/npm-service.js";
export { splitPublishBody } from "./packages/npm/publish-body.js";
export { NO_PACKAGE_PERMISSION, PackageAccess, type PackageOwnerAccess } from "./packages/package-access.js";
export {
  type OpenedFile,
  PACKAGE_ERRORS,
  PackageService,
  type PackageView,
} from "./packages/package-service.js";
export {
  type NewFile,
  PackageUploads,
  type StoredBlob,
  type VersionProperty,
} from "./packages/package-uploads.js";
export { isMergeable, isWorkInProgress } from "./pulls/merge-rules.js";
export { type MergeInput, type MergeOutcome, MergeService } from "./pulls/merge-service.js";
export { PullChecker } from "./pulls/pull-check.js";
export { PullCompareService } from "./pulls/pull-compare-service.js";
export { type EditPullInput, PullEditService } from "./pulls/pull-edit-service.js";
export { type CreatePullInput, type PullListQuery, PullService } from "./pulls/pull-service.js";
export { PullUpdateService } from "./pulls/pull-update-service.js";
export type { PullIssue, PullSide, PullView } from "./pulls/pull-views.js";
export { ReviewCommentService } from "./pulls/review-comment-service.js";
export { diffHunkOf } from "./pulls/review-hunk.js";
export { type ReviewRequestInput, ReviewRequestService } from "./pulls/review-request-service.js";
export {
  type CreateReviewInput,
  type LineCommentInput,
  ReviewService,
  type ReviewTarget,
} from "./pulls/review-service.js";
export type { ReviewCommentView, ReviewView } from "./pulls/review-views.js";
export { diskCleanupTask } from "./quota/disk-cleanup-task.js";
export {
  type DiskCheckOptions,
  DiskDoctor,
  type DiskReport,
  type LfsStoreCheck,
  type RepoSizeDrift,
} from "./quota/disk-doctor.js";
export { collectLeftovers, type LeftoverFinding, type LeftoverSources } from "./quota/disk-leftovers.js";
export { QuotaLedger, type RepositoryAssetUsage, type UsageDelta } from "./quota/ledger.js";
export {
  QuotaAdminService,
  type QuotaRuleInput,
  type QuotaRulePatch,
} from "./quota/quota-admin-service.js";
export { type DoctorOptions, type DoctorReport, QuotaDoctor, type UsageDrift } from "./quota/quota-doctor.js";
export { type QuotaInfoData, type QuotaOwner, QuotaService } from "./quota/quota-service.js";
export type { UsedItemKind, UsedItemLister, UsedItemListers, UsedItemScope } from "./quota/used-items.js";
export * from "./releases/index.js";
export { CollaboratorService } from "./repos/collaborator-service.js";
export { setCrashPoint } from "./repos/crash-point.js";
export { ForkService, type SyncForkInfo } from "./repos/fork-service.js";
export { type GenerateRepoInput, GenerateService } from "./repos/generate-service.js";
export { type GitErrorOverrides, withGitErrors } from "./repos/git-errors.js";
export {
  cleanLockPath,
  LfsLockService,
  type LockPage,
  type LockQuery,
  type LockVerification,
} from "./repos/lfs-lock-service.js";
export { type MigrateInput, MigrateService } from "./repos/migrate-service.js";
export { PushPolicyService } from "./repos/push-policy-service.js";
export { RefJournal, type RefMoveKind } from "./repos/ref-journal.js";
export type { CreateRepoInput, NewRepoValues } from "./repos/repo-create-service.js";
export { checkRepoName } from "./repos/repo-names.js";
export { type EditRepoInput, RepoService } from "./repos/repo-service.js";
export { type PendingTransfer, TransferService } from "./repos/transfer-service.js";
export { createServices, type Services } from "./services.js";
export * from "./social/index.js";
export { type GitignoreTemplate, gitignoreTemplates } from "./templates/gitignore-templates.js";
export { type LabelTemplateEntry, labelTemplates } from "./templates/label-templates.js";
export { type LicenseEntry, type LicenseTemplate, licenseTemplates } from "./templates/license-templates.js";
export { AccessTokenService, type CreatedAccessToken } from "./users/access-token-service.js";
export { EmailService } from "./users/email-service.js";
export { type RegistrationInput, RegistrationService } from "./users/registration-service.js";
export {
  type AdminEditUserInput,
  type CreateUserInput,
  type DeletionGuard,
  MIN_PASSWORD_LENGTH,
  UserService,
  type UserSettingsInput,
  userNotFound,
} from "./users/user-service.js";
export { canSeeUser } from "./users/visibility.js";
export * from "./webhooks/index.js";
export * from "./wiki/index.js";
