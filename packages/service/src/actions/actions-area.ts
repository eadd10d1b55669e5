import { FsBlobStore } from "@kiln/blobs";
import type { ServiceContext } from "../context.js";
import type { CronRegistry } from "../cron/cron-registry.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { QuotaService } from "../quota/quota-service.js";
import type { RepoService } from "../repos/repo-service.js";
import { ActionRunService } from "./action-run-service.js";
import { ActionSettingsService } from "./action-settings-service.js";
import { artifactExpiryTask } from "./artifact-expiry.js";
import { ArtifactService } from "./artifact-service.js";
import { RunnerTokenService } from "./runner-token-service.js";

/** Actions: artifacts, settings as data (secrets, variables), runner registration tokens, runs. */
export interface ActionsArea {
  /** Actions artifacts: uploads, lists, downloads, deletions and their expiry. */
  readonly artifacts: ArtifactService;
  /** Actions settings as data: secrets and variables, runner registration tokens, runs, jobs and tasks. */
  readonly actionSettings: ActionSettingsService;
  readonly runnerTokens: RunnerTokenService;
  readonly actionRuns: ActionRunService;
}

/** What the Actions services are built over, and where they register their usage, blobs and tasks. */
export interface ActionsAreaDeps {
  readonly repos: RepoService;
  readonly ledger: QuotaLedger;
  readonly quota: QuotaService;
  readonly cron: CronRegistry;
}

/** Builds the Actions area: artifacts count in the quota, are swept as blobs and expire by a task. */
export function actionsArea(ctx: ServiceContext, deps: ActionsAreaDeps): ActionsArea {
  const { repos, ledger, quota, cron } = deps;
  const artifacts = new ArtifactService(ctx, ledger, new FsBlobStore(ctx.settings.actions.artifactsPath));
  quota.registerUsedItems("artifacts", (ownerId, page, scope) => artifacts.usedItems(ownerId, page, scope));
  cron.registerBlobKind(artifacts.blobKind());
  cron.register(artifactExpiryTask(artifacts));
  return {
    artifacts,
    actionSettings: new ActionSettingsService(ctx),
    runnerTokens: new RunnerTokenService(ctx),
    actionRuns: new ActionRunService(ctx, repos),
  };
}
