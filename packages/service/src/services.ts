import { configureWorkLimits } from "@kiln/git";
import { enableReadCache } from "@kiln/storage";
import { AccessService } from "./access/access-service.js";
import { PermissionService } from "./access/permission-service.js";
import { type ActionsArea, actionsArea } from "./actions/actions-area.js";
import { type AdminArea, adminArea } from "./admin/admin-area.js";
import { type AttachmentsArea, attachmentsArea } from "./attachments/attachments-area.js";
import { type AuthArea, authArea } from "./auth/auth-area.js";
import { sessionCleanupTask } from "./auth/session-cleanup.js";
import type { ServiceContext, ServiceContextInit } from "./context.js";
import { CronRegistry } from "./cron/cron-registry.js";
import { EventRecorder } from "./events/recorder.js";
import { feedConsumer } from "./feed/feed-consumer.js";
import { FeedService } from "./feed/feed-service.js";
import { BranchProtectionService } from "./git/branch-protection-service.js";
import { type GitArea, gitArea } from "./git/git-area.js";
import { TagProtectionService } from "./git/tag-protection-service.js";
import { InstanceService } from "./instance/instance-service.js";
import { issueReferenceConsumer } from "./issues/issue-reference-consumer.js";
import { type IssuesArea, issuesArea } from "./issues/issues-area.js";
import { CommitVerifier } from "./keys/commit-verifier.js";
import { type KeysArea, keysArea } from "./keys/keys-area.js";
import { MarkupService } from "./markup/markup-service.js";
import { type OAuth2Area, oauth2Area } from "./oauth2/oauth2-area.js";
import { type OrgsArea, orgsArea } from "./orgs/orgs-area.js";
import { ownershipGuard, type RepositoryRemover } from "./orgs/ownership-guard.js";
import { type PackagesArea, packagesArea } from "./packages/packages-area.js";
import { forkDeletionConsumer } from "./pulls/fork-deletion-consumer.js";
import { resolveHeadRepo } from "./pulls/head-repo.js";
import { type PullsArea, pullsArea } from "./pulls/pulls-area.js";
import { QuotaLedger } from "./quota/ledger.js";
import { type QuotaArea, quotaArea } from "./quota/quota-area.js";
import { QuotaService } from "./quota/quota-service.js";
import { LfsLockService } from "./repos/lfs-lock-service.js";
import { PushPolicyService } from "./repos/push-policy-service.js";
import { RefUpdates } from "./repos/ref-updates.js";
import { RepoService } from "./repos/repo-service.js";
import { type ReposArea, reposArea } from "./repos/repos-area.js";
import { autoWatchConsumer } from "./social/auto-watch.js";
import { notificationConsumer } from "./social/notification-consumer.js";
import { type SocialArea, socialArea } from "./social/social-area.js";
import { type AccountsArea, accountsArea } from "./users/accounts-area.js";
import { UserService } from "./users/user-service.js";
import { hookTaskCleanupTask } from "./webhooks/hook-task-cleanup.js";
import { WebhookService } from "./webhooks/webhook-service.js";

/** Every service of a Kiln instance, built over one context: the areas' services and the core. */
export interface Services
  extends GitArea,
    IssuesArea,
    PullsArea,
    PackagesArea,
    ActionsArea,
    SocialArea,
    AuthArea,
    OAuth2Area,
    KeysArea,
    AdminArea,
    AccountsArea,
    OrgsArea,
    AttachmentsArea,
    ReposArea,
    QuotaArea {
  readonly ctx: ServiceContext;
  /** The periodic tasks (blob sweeps, artifact expiry, …): `kiln web` schedules them. */
  readonly cron: CronRegistry;
  /** The access module: who may see and do what (every route, the git transport and LFS ask it). */
  readonly access: AccessService;
  readonly permissions: PermissionService;
  readonly users: UserService;
  readonly ledger: QuotaLedger;
  readonly quota: QuotaService;
  readonly repositories: RepoService;
  /** The one path that moves refs (API writes, branches, tags, merges, `git push` over HTTP, …). */
  readonly refUpdates: RefUpdates;
  readonly pushPolicies: PushPolicyService;
  /** Git LFS file locks (the locks API); the push policy refuses changes to others' locked files. */
  readonly lfsLocks: LfsLockService;
  /** Activity feeds of users, organizations, teams and repositories. */
  readonly feeds: FeedService;
  /** Webhooks: hook CRUD, the delivery queue (an event consumer that builds the payloads) and its worker. */
  readonly webhooks: WebhookService;
  /** Markdown rendering for `/markdown` and `/markup` (mentions resolved for the caller, sanitized). */
  readonly markup: MarkupService;
  /** Facts about the instance as a whole (`/nodeinfo`). */
  readonly instance: InstanceService;
  /** Commit signature verification against the registered GPG and SSH keys. */
  readonly commitVerifier: CommitVerifier;
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
  // Everyone an issue or pull request concerns is told of its changes, in their transaction.
  ctx.events.register(notificationConsumer);
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
  const tagProtections = new TagProtectionService(ctx);
  const issueArea = issuesArea(ctx, { access, permissions, repos, users });
  const lfsLocks = new LfsLockService(ctx);
  const pushPolicies = new PushPolicyService(protections, quota, tagProtections, lfsLocks, {
    maxRefs: ctx.settings.repository.maxRefs,
    maxFiles: ctx.settings.repository.maxFiles,
  });
  const refUpdates = new RefUpdates(ctx, repos, pushPolicies, commitVerifier);
  ctx.events.onAfterCommitFailure((task, err) =>
    ctx.logger.warn({ err: (err as Error).message, task }, "after-commit work failed"),
  );
  const pullArea = pullsArea(ctx, {
    access,
    permissions,
    repos,
    protections,
    commitVerifier,
    pushPolicies,
    refUpdates,
    issues: issueArea,
  });
  // Pull requests whose branches a move touched are checked again after the move's commit.
  refUpdates.follow(pullArea.pullChecks);
  const git = gitArea(ctx, {
    repos,
    users,
    commitVerifier,
    protections,
    tagProtections,
    refUpdates,
    headRepo: (repo, name) => resolveHeadRepo(ctx.db, access, repo, name),
  });
  // A reported status may complete the checks a scheduled merge waits for.
  git.commitStatuses.onCreated((repo, sha) => pullArea.merges.statusReported(repo, sha));
  const packageArea = packagesArea(ctx, { access, ledger, quota, cron });
  const actionArea = actionsArea(ctx, { repos, ledger, quota, cron });
  cron.register(hookTaskCleanupTask(ctx));
  const repoArea = reposArea(ctx, {
    access,
    permissions,
    repos,
    refUpdates,
    pushPolicies,
    ledger,
    quota,
    cron,
  });
  cron.register(sessionCleanupTask(ctx));
  return {
    ...git,
    ...issueArea,
    ...pullArea,
    ...packageArea,
    ...actionArea,
    ...socialArea(ctx),
    ...authArea(ctx),
    ...oauth2Area(ctx),
    ...keysArea(ctx),
    ...adminArea(ctx, repos, ledger),
    ...accountsArea(ctx, { users, cron }),
    ...orgsArea(ctx, permissions),
    ...attachmentsArea(ctx, { access, cron, ledger, quota, tags: git.tags, ...issueArea }),
    ...repoArea,
    ...quotaArea(ctx, { repos, wikis: repoArea.wikis, cron }),
    ctx,
    cron,
    access,
    permissions,
    users,
    ledger,
    quota,
    repositories: repos,
    refUpdates,
    pushPolicies,
    lfsLocks,
    feeds: new FeedService(ctx),
    webhooks: new WebhookService(ctx, repos),
    markup: new MarkupService(ctx),
    instance: new InstanceService(ctx),
    commitVerifier,
  };
}
