import type { AccessService } from "../access/access-service.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import type { CronRegistry } from "../cron/cron-registry.js";
import { PullMirrorService } from "../mirrors/pull-mirror-service.js";
import { PushMirrorService } from "../mirrors/push-mirror-service.js";
import { updateMirrorsTask } from "../mirrors/update-mirrors-task.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { QuotaService } from "../quota/quota-service.js";
import { WikiService } from "../wiki/wiki-service.js";
import { wikiSizeRecountTask } from "../wiki/wiki-size-recount.js";
import { CollaboratorService } from "./collaborator-service.js";
import { ForkService } from "./fork-service.js";
import { GenerateService } from "./generate-service.js";
import { MigrateService } from "./migrate-service.js";
import type { PushPolicyService } from "./push-policy-service.js";
import { refJournalTask } from "./ref-journal-task.js";
import type { RefUpdates } from "./ref-updates.js";
import { RepoFlagService } from "./repo-flag-service.js";
import { RepoPeopleService } from "./repo-people-service.js";
import type { RepoService } from "./repo-service.js";
import { repoSizeRecountTask } from "./repo-size-recount.js";
import { TopicService } from "./topic-service.js";
import { TransferService } from "./transfer-service.js";

/** What a repository has around its git: people, transfers, forks, mirrors, wiki, topics, flags. */
export interface ReposArea {
  readonly collaborators: CollaboratorService;
  readonly transfers: TransferService;
  readonly migrations: MigrateService;
  /** Pull mirrors (made by migration) and push mirrors, and their syncs. */
  readonly pullMirrors: PullMirrorService;
  readonly pushMirrors: PushMirrorService;
  readonly topics: TopicService;
  /** Site administrators' repository flags (`[repository] ENABLE_FLAGS`). */
  readonly repoFlags: RepoFlagService;
  /** Assignee and reviewer candidates of a repository. */
  readonly repoPeople: RepoPeopleService;
  /** Forks and their sync with the parent. */
  readonly forks: ForkService;
  /** Repositories generated from templates. */
  readonly generator: GenerateService;
  /** Repository wikis: pages through the API, the `.wiki.git` repository, their size as `size:wiki`. */
  readonly wikis: WikiService;
}

export interface ReposAreaDeps {
  readonly access: AccessService;
  readonly permissions: PermissionService;
  readonly repos: RepoService;
  readonly refUpdates: RefUpdates;
  readonly pushPolicies: PushPolicyService;
  readonly ledger: QuotaLedger;
  readonly quota: QuotaService;
  readonly cron: CronRegistry;
}

/** Builds the repositories area, and schedules its periodic work (mirror syncs, size recounts, the ref journal). */
export function reposArea(ctx: ServiceContext, deps: ReposAreaDeps): ReposArea {
  const { access, permissions, repos, refUpdates, pushPolicies, ledger, quota, cron } = deps;
  const pullMirrors = new PullMirrorService(ctx, repos, refUpdates);
  const pushMirrors = new PushMirrorService(ctx, repos);
  const wikis = new WikiService(ctx, repos, ledger, refUpdates);
  cron.register(updateMirrorsTask(ctx, pullMirrors, pushMirrors, quota));
  cron.register(repoSizeRecountTask(ctx, repos));
  cron.register(refJournalTask(repos.journal));
  cron.register(wikiSizeRecountTask(ctx, wikis));
  return {
    collaborators: new CollaboratorService(ctx, permissions),
    transfers: new TransferService(ctx, permissions, ledger, repos, quota),
    migrations: new MigrateService(ctx, repos, refUpdates, pullMirrors),
    pullMirrors,
    pushMirrors,
    topics: new TopicService(ctx),
    repoFlags: new RepoFlagService(ctx),
    repoPeople: new RepoPeopleService(ctx),
    forks: new ForkService(ctx, permissions, repos, refUpdates, ledger, pushPolicies, access),
    generator: new GenerateService(ctx, repos, ledger, permissions),
    wikis,
  };
}
