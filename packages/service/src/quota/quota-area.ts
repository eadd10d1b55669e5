import type { ServiceContext } from "../context.js";
import type { CronRegistry } from "../cron/cron-registry.js";
import type { RepoService } from "../repos/repo-service.js";
import type { WikiService } from "../wiki/wiki-service.js";
import { diskCleanupTask } from "./disk-cleanup-task.js";
import { DiskDoctor } from "./disk-doctor.js";
import { QuotaAdminService } from "./quota-admin-service.js";
import { QuotaDoctor } from "./quota-doctor.js";
import { quotaDoctorTask } from "./quota-doctor-task.js";

/** The quota's administration and its checks (the ledger and enforcement are core services). */
export interface QuotaArea {
  readonly quotaAdmin: QuotaAdminService;
  readonly quotaDoctor: QuotaDoctor;
  /** What the ledger check cannot see: leftovers on disk, sizes that differ from the disk, the LFS store. */
  readonly diskDoctor: DiskDoctor;
}

/** Builds the quota area, and schedules its checks (the ledger's and the disk's). */
export function quotaArea(
  ctx: ServiceContext,
  deps: { repos: RepoService; wikis: WikiService; cron: CronRegistry },
): QuotaArea {
  const quotaDoctor = new QuotaDoctor(ctx);
  const diskDoctor = new DiskDoctor(ctx, deps.repos, deps.wikis, () => deps.cron.blobKinds());
  deps.cron.register(quotaDoctorTask(quotaDoctor, ctx.logger));
  deps.cron.register(diskCleanupTask(diskDoctor, ctx.logger));
  return { quotaAdmin: new QuotaAdminService(ctx), quotaDoctor, diskDoctor };
}
