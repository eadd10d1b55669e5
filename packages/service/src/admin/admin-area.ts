import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { RepoService } from "../repos/repo-service.js";
import { AdminEmailService } from "./admin-email-service.js";
import { RenameService } from "./rename-service.js";
import { UnadoptedService } from "./unadopted-service.js";

/** Site administration: repositories on disk without a row, every user's e-mail addresses, renames. */
export interface AdminArea {
  readonly unadopted: UnadoptedService;
  readonly adminEmails: AdminEmailService;
  readonly renames: RenameService;
}

/** Builds the site administration area over the repositories and the quota ledger. */
export function adminArea(ctx: ServiceContext, repos: RepoService, ledger: QuotaLedger): AdminArea {
  return {
    unadopted: new UnadoptedService(ctx, repos, ledger),
    adminEmails: new AdminEmailService(ctx),
    renames: new RenameService(ctx, repos),
  };
}
