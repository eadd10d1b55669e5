import { FsBlobStore } from "@kiln/blobs";
import { configureWorkLimits } from "@kiln/git";
import { attachments as attachmentQueries, enableReadCache, packages as packageRows } from "@kiln/storage";
import { AccessService } from "./access/access-service.js";
import { PermissionService } from "./access/permission-service.js";
import { ActionRunService } from "./actions/action-run-service.js";
import { ActionSettingsService } from "./actions/action-settings-service.js";
import { artifactExpiryTask } from "./actions/artifact-expiry.js";
import { ArtifactService } from "./actions/artifact-service.js";
import { RunnerTokenService } from "./actions/runner-token-service.js";
import { AdminEmailService } from "./admin/admin-email-service.js";
import { RenameService } from "./admin/rename-service.js";
import { UnadoptedService } from "./admin/unadopted-service.js";
import { AttachmentService } from "./attachments/attachment-service.js";
import { IssueAttachmentService } from "./attachments/issue-attachment-service.js";
import { AuthService } from "./auth/auth-service.js";
import { sessionCleanupTask } from "./auth/session-cleanup.js";
import { TwoFactorService } from "./auth/two-factor-service.js";
import { WebSessionService } from "./auth/web-session-service.js";
import { AvatarService } from "./avatars/avatar-service.js";
import type { ServiceContext, ServiceContextInit } from "./context.js";
import { CronRegistry } from "./cron/cron-registry.js";
import { EventRecorder } from "./events/recorder.js";
import { feedConsumer } from "./feed/feed-consumer.js";
import { FeedService } from "./feed/feed-service.js";
import { AnnotatedTagService } from "./git/annotated-tag-service.js";
import { ArchiveService } from "./git/archive-service.js";
import { BranchProtectionService } from "./git/branch-protection-service.js";
import { BranchRenameService } from "./git/branch-rename-service.js";
import { BranchService } from "./git/branch-service.js";
import { CommitDiffService } from "./git/commit-diff-service.js";
import { CommitService } from "./git/commit-service.js";
import { CommitStatusService } from "./git/commit-status-service.js";
import { CompareService } from "./git/compare-service.js";
import { ContentService } from "./git/content-service.js";
import { EditorconfigService } from "./git/editorconfig-service.js";
import { FileService } from "./git/file-service.js";
import { GitHookService } from "./git/git-hook-service.js";
import { NoteService } from "./git/note-service.js";
import { GitObjectService } from "./git/object-service.js";
import { PatchService } from "./git/patch-service.js";
import { TagProtectionService } from "./git/tag-protection-service.js";
import { TagService } from "./git/tag-service.js";
import { InstanceService } from "./instance/instance-service.js";
import { CommentService } from "./issues/comment-service.js";
import { IssueDependencyService } from "./issues/issue-dependency-service.js";
import { IssueEditService } from "./issues/issue-edit-service.js";
import { IssueLabelService } from "./issues/issue-label-service.js";
import { issueReferenceConsumer } from "./issues/issue-reference-consumer.js";
import { IssueSearchService } from "./issues/issue-search-service.js";
import { IssueService } from "./issues/issue-service.js";
import { IssueStateService } from "./issues/issue-state-service.js";
import { IssueTemplateService } from "./issues/issue-template-service.js";
import { IssueWatchService } from "./issues/issue-watch-service.js";
import { LabelService } from "./issues/label-service.js";
import { MilestoneService } from "./issues/milestone-service.js";
import { ReactionService } from "./issues/reaction-service.js";
import { TimeService } from "./issues/time-service.js";
import { TimelineService } from "./issues/timeline-service.js";
import { CommitVerifier } from "./keys/commit-verifier.js";
import { GpgKeyService } from "./keys/gpg-key-service.js";
import { SshKeyService } from "./keys/ssh-key-service.js";
import { MarkupService } from "./markup/markup-service.js";
import { PullMirrorService } from "./mirrors/pull-mirror-service.js";
import { PushMirrorService } from "./mirrors/push-mirror-service.js";
import { updateMirrorsTask } from "./mirrors/update-mirrors-task.js";
import { OAuth2ApplicationService } from "./oauth2/application-service.js";
import { OAuth2Authorizer } from "./oauth2/authorize.js";
import { OAuth2TokenService } from "./oauth2/token-service.js";
import { OrgService } from "./orgs/org-service.js";
import { ownershipGuard, type RepositoryRemover } from "./orgs/ownership-guard.js";
import { TeamService } from "./orgs/team-service.js";
import { NpmService } from "./packages/npm/npm-service.js";
import { PackageAccess } from "./packages/package-access.js";
import { PackageService } from "./packages/package-service.js";
import { PackageUploads } from "./packages/package-uploads.js";
import { forkDeletionConsumer } from "./pulls/fork-deletion-consumer.js";
import { resolveHeadRepo } from "./pulls/head-repo.js";
import { MergeService } from "./pulls/merge-service.js";
import { PullChecker } from "./pulls/pull-check.js";
import { PullCompareService } from "./pulls/pull-compare-service.js";
import { PullEditService } from "./pulls/pull-edit-service.js";
import { PullService } from "./pulls/pull-service.js";
import { PullUpdateService } from "./pulls/pull-update-service.js";
import { PushTracker } from "./pulls/push-tracker.js";
import { ReviewCommentService } from "./pulls/review-comment-service.js";
import { ReviewRequestService } from "./pulls/review-request-service.js";
import { ReviewerRules } from "./pulls/review-rules.js";
import { ReviewService } from "./pulls/review-service.js";
import { diskCleanupTask } from "./quota/disk-cleanup-task.js";
import { DiskDoctor } from "./quota/disk-doctor.js";
import { QuotaLedger } from "./quota/ledger.js";
import { QuotaAdminService } from "./quota/quota-admin-service.js";
import { QuotaDoctor } from "./quota/quota-doctor.js";
import { quotaDoctorTask } from "./quota/quota-doctor-task.js";
import { QuotaService } from "./quota/quota-service.js";
import { ReleaseService } from "./releases/release-service.js";
import { CollaboratorService } from "./repos/collaborator-service.js";
import { ForkService } from "./repos/fork-service.js";
import { GenerateService } from "./repos/generate-service.js";
import { LfsLockService } from "./repos/lfs-lock-service.js";
import { MigrateService } from "./repos/migrate-service.js";
import { PushPolicyService } from "./repos/push-policy-service.js";
import { refJournalTask } from "./repos/ref-journal-task.js";
import { RepoFlagService } from "./repos/repo-flag-service.js";
import { RepoPeopleService } from "./repos/repo-people-service.js";
import { RepoService } from "./repos/repo-service.js";
import { repoSizeRecountTask } from "./repos/repo-size-recount.js";
import { TopicService } from "./repos/topic-service.js";
import { TransferService } from "./repos/transfer-service.js";
import { autoWatchConsumer } from "./social/auto-watch.js";
import { BlockService } from "./social/block-service.js";
import { FollowService } from "./social/follow-service.js";
import { NotificationService } from "./social/notification-service.js";
import { StarService } from "./social/star-service.js";
import { WatchService } from "./social/watch-service.js";
import { AccessTokenService } from "./users/access-token-service.js";
import { EmailService } from "./users/email-service.js";
import { RegistrationService } from "./users/registration-service.js";
import { UserService } from "./users/user-service.js";
import { hookTaskCleanupTask } from "./webhooks/hook-task-cleanup.js";
import { WebhookService } from "./webhooks/webhook-service.js";
import { WikiService } from "./wiki/wiki-service.js";
import { wikiSizeRecountTask } from "./wiki/wiki-size-recount.js";

/** Every service of a Kiln instance, built over one context. */
export interface Services {
  readonly ctx: ServiceContext;
  /** The periodic tasks (blob sweeps, artifact expiry, …): `kiln web` schedules them. */
  readonly cron: CronRegistry;
  /** Attachments of releases, issues and comments, and their blob store. */
  readonly attachments: AttachmentService;
  readonly releases: ReleaseService;
  readonly issueAttachments: IssueAttachmentService;
  /** The access module: who may see and do what (every route, the git transport and LFS ask it). */
  readonly access: AccessService;
  readonly auth: AuthService;
  readonly users: UserService;
  readonly emails: EmailService;
  readonly tokens: AccessTokenService;
  readonly permissions: PermissionService;
  readonly orgs: OrgService;
  readonly teams: TeamService;
  readonly ledger: QuotaLedger;
  readonly quota: QuotaService;
  readonly quotaAdmin: QuotaAdminService;
  readonly quotaDoctor: QuotaDoctor;
  /** What the ledger check cannot see: leftovers on disk, sizes that differ from the disk, the LFS store. */
  readonly diskDoctor: DiskDoctor;
  readonly repositories: RepoService;
  readonly collaborators: CollaboratorService;
  readonly transfers: TransferService;
  readonly migrations: MigrateService;
  /** Pull mirrors (made by migration) and push mirrors, and their syncs. */
  readonly pullMirrors: PullMirrorService;
  readonly pushMirrors: PushMirrorService;
  readonly pushPolicies: PushPolicyService;
  /** Git LFS file locks (the locks API); the push policy refuses changes to others' locked files. */
  readonly lfsLocks: LfsLockService;
  readonly commits: CommitService;
  readonly gitObjects: GitObjectService;
  readonly contents: ContentService;
  readonly archives: ArchiveService;
  readonly files: FileService;
  readonly branches: BranchService;
  readonly branchProtections: BranchProtectionService;
  readonly tags: TagService;
  readonly tagProtections: TagProtectionService;
  readonly branchRenames: BranchRenameService;
  readonly gitHooks: GitHookService;
  readonly notes: NoteService;
  readonly annotatedTags: AnnotatedTagService;
  readonly compare: CompareService;
  readonly editorconfig: EditorconfigService;
  readonly patches: PatchService;
  readonly labels: LabelService;
  readonly issues: IssueService;
  readonly issueEdits: IssueEditService;
  readonly issueSearch: IssueSearchService;
  readonly comments: CommentService;
  readonly issueLabels: IssueLabelService;
  readonly times: TimeService;
  readonly issueWatches: IssueWatchService;
  readonly reactions: ReactionService;
  readonly issueStates: IssueStateService;
  readonly issueDependencies: IssueDependencyService;
  readonly timeline: TimelineService;
  readonly issueTemplates: IssueTemplateService;
  readonly milestones: MilestoneService;
  readonly pullChecks: PullChecker;
  readonly pulls: PullService;
  readonly pullEdits: PullEditService;
  readonly pullCompare: PullCompareService;
  readonly pullUpdates: PullUpdateService;
  readonly merges: MergeService;
  readonly reviews: ReviewService;
  readonly reviewComments: ReviewCommentService;
  readonly reviewRequests: ReviewRequestService;
  /** The package registries: every type's storage, reads and deletions, and the npm registry. */
  readonly packages: PackageService;
  readonly packageUploads: PackageUploads;
  readonly npm: NpmService;
  /** Actions artifacts: uploads, lists, downloads, deletions and their expiry. */
  readonly artifacts: ArtifactService;
  /** Activity feeds of users, organizations, teams and repositories. */
  readonly feeds: FeedService;
  /** Webhooks: hook CRUD, the delivery queue (an event consumer once the HTTP layer gives it payloads) and its worker. */
  readonly webhooks: WebhookService;
  /** Watching, stars, following and the notification threads they and issue changes produce. */
  readonly watches: WatchService;
  readonly stars: StarService;
  readonly follows: FollowService;
  readonly notifications: NotificationService;
  /** Markdown rendering for `/markdown` and `/markup` (mentions resolved for the caller, sanitized). */
  readonly markup: MarkupService;
  readonly topics: TopicService;
  /** Site administrators' repository flags (`[repository] ENABLE_FLAGS`). */
  readonly repoFlags: RepoFlagService;
  /** Assignee and reviewer candidates of a repository. */
  readonly repoPeople: RepoPeopleService;
  /** Facts about the instance as a whole (`/nodeinfo`). */
  readonly instance: InstanceService;
  readonly commitStatuses: CommitStatusService;
  readonly commitDiffs: CommitDiffService;
  /** SSH keys of users and deploy keys of repositories. */
  readonly sshKeys: SshKeyService;
  /** GPG keys of users. */
  readonly gpgKeys: GpgKeyService;
  /** Commit signature verification against the registered GPG and SSH keys. */
  readonly commitVerifier: CommitVerifier;
  /** OAuth2: users' applications, the authorization endpoint and consent, the token endpoint. */
  readonly oauth2Applications: OAuth2ApplicationService;
  readonly oauth2Authorizer: OAuth2Authorizer;
  readonly oauth2Tokens: OAuth2TokenService;
  /** The web pages' sign-in sessions and TOTP enrolment. */
  readonly webSessions: WebSessionService;
  /** Self-registration on the sign-up page (`[service] DISABLE_REGISTRATION`). */
  readonly registrations: RegistrationService;
  readonly twoFactor: TwoFactorService;
  /** Uploaded avatars of users, organizations and repositories, and generated identicons. */
  readonly avatars: AvatarService;
  /** Site administration: repositories on disk without a row, every user's e-mail addresses. */
  readonly unadopted: UnadoptedService;
  readonly adminEmails: AdminEmailService;
  readonly renames: RenameService;
  /** Actions settings as data: secrets and variables, runner registration tokens, runs, jobs and tasks. */
  readonly actionSettings: ActionSettingsService;
  readonly runnerTokens: RunnerTokenService;
  readonly actionRuns: ActionRunService;
  /** Repository wikis: pages through the API, the `.wiki.git` repository, their size as `size:wiki`. */
  readonly wikis: WikiService;
  readonly blocks: BlockService;
  /** Forks and their sync with the parent. */
  readonly forks: ForkService;
  /** Repositories generated from templates. */
  readonly generator: GenerateService;
}

/** Builds the services of an instance. */
export function createServices(init: ServiceContextInit): Services {
  const ctx: ServiceContext = { ...init, events: new EventRecorder() };
  // The activity feed writes its entries in the transaction of each change.
  ctx.events.register(feedConsumer);
  // Hot reads (repositories with the caller's access facts, visibility-filtered lists) are kept until
  // anything is written through this process, or for at most the TTL (other processes' writes).
  enableReadCache(ctx.db, { ttl: ctx.settings.security.credentialCacheTtl });
  // Process-wide caps on concurrent git processes and open files (`[git]`).
  configureWorkLimits(ctx.settings.git);
  const access = new AccessService(ctx);
  ctx.events.register(autoWatchConsumer(ctx));
  const cron = new CronRegistry(ctx.settings.cron, ctx.logger);
  const permissions = new PermissionService(ctx, access);
  const ledger = new QuotaLedger();
  const quota = new QuotaService(ctx);
  const users = new UserService(ctx);
  const repos = new RepoService(ctx, permissions, ledger);
  // Closing keywords and commit references act in the transaction of the push or merge.
  ctx.events.register(issueReferenceConsumer(ctx, access, repos));
  // A deleted fork's pull requests are closed with it.
  ctx.events.register(forkDeletionConsumer(ctx));
  const commitVerifier = new CommitVerifier(ctx);
  const removeRepository: RepositoryRemover = {
    deleteRows: (trx, repo) => repos.deleteRows(trx, repo),
    removeFiles: (repo) => repos.removeFiles(repo),
  };
  users.addDeletionGuard(ownershipGuard(removeRepository));
  const protections = new BranchProtectionService(ctx, permissions);
  const contents = new ContentService(repos);
  const tagProtections = new TagProtectionService(ctx);
  const tagService = new TagService(ctx, repos, tagProtections);
  const issues = new IssueService(ctx, permissions);
  const times = new TimeService(ctx, issues);
  const commentService = new CommentService(ctx, issues);
  const issueEdits = new IssueEditService(ctx, permissions, issues);
  const issueLabels = new IssueLabelService(ctx, issues);
  const pullChecks = new PullChecker(ctx, repos, protections, new PushTracker());
  const pullService = new PullService(ctx, permissions, repos, issues, pullChecks, access);
  const lfsLocks = new LfsLockService(ctx);
  const pushPolicies = new PushPolicyService(protections, quota, tagProtections, lfsLocks, {
    maxRefs: ctx.settings.repository.maxRefs,
    maxFiles: ctx.settings.repository.maxFiles,
  });
  const merges = new MergeService(ctx, repos, pullService, protections, access, pullChecks, commitVerifier);
  const reviewerRules = new ReviewerRules(ctx, permissions, protections);
  const reviews = new ReviewService(ctx, repos, pullService, merges, reviewerRules);
  const packageAccess = new PackageAccess(access);
  const packageBlobs = new FsBlobStore(ctx.settings.packages.path);
  const packages = new PackageService(ctx, access, packageAccess, ledger, packageBlobs);
  const packageUploads = new PackageUploads(ctx, packageAccess, ledger, packageBlobs);
  quota.registerUsedItems("packages", (...args) => packages.usedItems(...args));
  cron.registerBlobKind({
    name: "packages",
    store: packageBlobs,
    referenced: (keys) => packageRows.referencedBlobKeys(ctx.db, keys),
  });
  const artifacts = new ArtifactService(ctx, ledger, new FsBlobStore(ctx.settings.actions.artifactsPath));
  quota.registerUsedItems("artifacts", (ownerId, page, scope) => artifacts.usedItems(ownerId, page, scope));
  cron.registerBlobKind(artifacts.blobKind());
  cron.register(artifactExpiryTask(artifacts));
  cron.register(hookTaskCleanupTask(ctx));
  const pullMirrors = new PullMirrorService(ctx, repos);
  const pushMirrors = new PushMirrorService(ctx, repos);
  cron.register(updateMirrorsTask(ctx, pullMirrors, pushMirrors, quota));
  cron.register(sessionCleanupTask(ctx));
  const attachmentService = new AttachmentService(ctx, access);
  cron.registerBlobKind(attachmentService.blobKind());
  const avatarService = new AvatarService(ctx);
  cron.registerBlobKind(avatarService.blobKind());
  const quotaDoctor = new QuotaDoctor(ctx);
  cron.register(repoSizeRecountTask(ctx, repos));
  cron.register(refJournalTask(repos.journal));
  cron.register(quotaDoctorTask(quotaDoctor, ctx.logger));
  const wikis = new WikiService(ctx, repos, ledger);
  const diskDoctor = new DiskDoctor(ctx, repos, wikis, () => cron.blobKinds());
  cron.register(diskCleanupTask(diskDoctor, ctx.logger));
  // A repository's attachments move with it to a new owner and go with it.
  ledger.registerRepositoryAssets((db, repoId) => attachmentQueries.sumOfRepository(db, repoId));
  const commitStatuses = new CommitStatusService(ctx, repos);
  // A reported status may complete the checks a scheduled merge waits for.
  commitStatuses.onCreated((repo, sha) => merges.statusReported(repo, sha));
  const services: Services = {
    ctx,
    cron,
    attachments: attachmentService,
    releases: new ReleaseService(ctx, tagService),
    issueAttachments: new IssueAttachmentService(issues, commentService, attachmentService),
    access,
    auth: new AuthService(ctx),
    users,
    emails: new EmailService(ctx),
    tokens: new AccessTokenService(ctx),
    permissions,
    orgs: new OrgService(ctx, permissions),
    teams: new TeamService(ctx, permissions),
    ledger,
    quota,
    quotaAdmin: new QuotaAdminService(ctx),
    quotaDoctor,
    diskDoctor,
    repositories: repos,
    collaborators: new CollaboratorService(ctx, permissions),
    transfers: new TransferService(ctx, permissions, ledger, repos, quota),
    migrations: new MigrateService(ctx, repos, pullMirrors),
    pullMirrors,
    pushMirrors,
    pushPolicies,
    lfsLocks,
    commits: new CommitService(repos, users, commitVerifier),
    gitObjects: new GitObjectService(repos),
    contents,
    archives: new ArchiveService(repos),
    files: new FileService(ctx, repos, protections, contents, pullChecks),
    branches: new BranchService(repos, users, protections, commitVerifier),
    branchProtections: protections,
    tags: tagService,
    tagProtections,
    branchRenames: new BranchRenameService(repos, protections),
    gitHooks: new GitHookService(),
    notes: new NoteService(ctx, repos, new CommitService(repos, users, commitVerifier)),
    annotatedTags: new AnnotatedTagService(repos, commitVerifier),
    compare: new CompareService(repos, new CommitService(repos, users, commitVerifier), (repo, name) =>
      resolveHeadRepo(ctx.db, access, repo, name),
    ),
    editorconfig: new EditorconfigService(repos),
    patches: new PatchService(ctx, repos, protections, pullChecks),
    labels: new LabelService(ctx),
    issues,
    issueEdits,
    issueSearch: new IssueSearchService(ctx, access),
    comments: commentService,
    issueLabels,
    times,
    issueWatches: new IssueWatchService(ctx, issues, users),
    reactions: new ReactionService(ctx, issues),
    issueStates: new IssueStateService(ctx, issues),
    issueDependencies: new IssueDependencyService(ctx, access, issues),
    timeline: new TimelineService(ctx, access, issues, times),
    issueTemplates: new IssueTemplateService(repos),
    milestones: new MilestoneService(ctx),
    pullChecks,
    pulls: pullService,
    pullEdits: new PullEditService(ctx, repos, pullService, issueEdits, issueLabels, pullChecks),
    pullCompare: new PullCompareService(repos, pullService),
    pullUpdates: new PullUpdateService(ctx, repos, pullService, protections, pullChecks, pushPolicies),
    merges,
    reviews,
    reviewComments: new ReviewCommentService(ctx, repos, reviews),
    reviewRequests: new ReviewRequestService(ctx, permissions, pullService, reviewerRules),
    packages,
    packageUploads,
    npm: new NpmService(ctx, packages, packageUploads, packageAccess),
    artifacts,
    feeds: new FeedService(ctx),
    webhooks: new WebhookService(ctx, repos),
    watches: new WatchService(ctx),
    stars: new StarService(ctx),
    follows: new FollowService(ctx),
    notifications: new NotificationService(ctx),
    markup: new MarkupService(ctx),
    topics: new TopicService(ctx),
    repoFlags: new RepoFlagService(ctx),
    repoPeople: new RepoPeopleService(ctx),
    instance: new InstanceService(ctx),
    commitStatuses,
    commitDiffs: new CommitDiffService(repos),
    sshKeys: new SshKeyService(ctx),
    gpgKeys: new GpgKeyService(ctx),
    commitVerifier,
    oauth2Applications: new OAuth2ApplicationService(ctx),
    oauth2Authorizer: new OAuth2Authorizer(ctx),
    oauth2Tokens: new OAuth2TokenService(ctx),
    webSessions: new WebSessionService(ctx),
    registrations: new RegistrationService(ctx, users),
    twoFactor: new TwoFactorService(ctx),
    avatars: avatarService,
    unadopted: new UnadoptedService(ctx, repos, ledger),
    adminEmails: new AdminEmailService(ctx),
    renames: new RenameService(ctx, repos),
    actionSettings: new ActionSettingsService(ctx),
    runnerTokens: new RunnerTokenService(ctx),
    actionRuns: new ActionRunService(ctx, repos),
    wikis,
    blocks: new BlockService(ctx),
    forks: new ForkService(ctx, permissions, repos, ledger, pushPolicies, access),
    generator: new GenerateService(ctx, repos, ledger, permissions),
  };
  services.quota.registerUsedItems("attachments", (ownerId, page, scope) =>
    attachmentService.usedBy(ownerId, page, scope.publicOnly),
  );
  cron.register(wikiSizeRecountTask(ctx, services.wikis));
  return services;
}
