import { FsBlobStore } from "@kiln/blobs";
import { packages as packageRows } from "@kiln/storage";
import type { AccessService } from "../access/access-service.js";
import type { ServiceContext } from "../context.js";
import type { CronRegistry } from "../cron/cron-registry.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { QuotaService } from "../quota/quota-service.js";
import { NpmService } from "./npm/npm-service.js";
import { PackageAccess } from "./package-access.js";
import { PackageService } from "./package-service.js";
import { PackageUploads } from "./package-uploads.js";

/** The package registries: every type's storage, reads and deletions, and the npm registry. */
export interface PackagesArea {
  readonly packages: PackageService;
  readonly packageUploads: PackageUploads;
  readonly npm: NpmService;
}

/** What the package registries are built over, and where they register their usage and blobs. */
export interface PackagesAreaDeps {
  readonly access: AccessService;
  readonly ledger: QuotaLedger;
  readonly quota: QuotaService;
  readonly cron: CronRegistry;
}

/**
 * Builds the package area over one blob store: its usage is counted by the quota service and
 * its blobs no row references are swept by the cron's blob sweep.
 */
export function packagesArea(ctx: ServiceContext, deps: PackagesAreaDeps): PackagesArea {
  const { access, ledger, quota, cron } = deps;
  const packageAccess = new PackageAccess(access);
  const blobs = new FsBlobStore(ctx.settings.packages.path);
  const packages = new PackageService(ctx, access, packageAccess, ledger, blobs);
  const packageUploads = new PackageUploads(ctx, packageAccess, ledger, blobs);
  quota.registerUsedItems("packages", (...args) => packages.usedItems(...args));
  cron.registerBlobKind({
    name: "packages",
    store: blobs,
    referenced: (keys) => packageRows.referencedBlobKeys(ctx.db, keys),
  });
  return {
    packages,
    packageUploads,
    npm: new NpmService(ctx, packages, packageUploads, packageAccess),
  };
}
