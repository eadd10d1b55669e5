import { NotFoundError } from "@kiln/domain";
import { adminRepos } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { CronTask } from "../cron/cron-task.js";
import type { RepoService } from "./repo-service.js";

/**
 * The `update_repository_size` cron task: re-measures every repository on disk (Forgejo keeps
 * `size` up to date on push; its doctor recalculates it) and records each change of usage of the
 * owner in the quota ledger, in batches. A repository whose directory is missing is skipped and
 * counted; one deleted meanwhile is passed over.
 */
export function repoSizeRecountTask(ctx: ServiceContext, repos: RepoService): CronTask {
  return {
    name: "update_repository_size",
    description: "Re-measure every repository on disk and record its size as its owner's usage",
    schedule: "@midnight",
    async run({ signal }) {
      let measured = 0;
      let failed = 0;
      for (let after = 0; !signal.aborted; ) {
        const ids = await adminRepos.repositoryIdsAfter(ctx.db, after, 100);
        if (ids.length === 0) break;
        after = ids.at(-1) ?? after;
        for (const id of ids) {
          if (signal.aborted) break;
          try {
            await repos.refreshSize(id);
            measured++;
          } catch (error) {
            if (error instanceof NotFoundError) continue;
            failed++;
            ctx.logger.warn({ repoId: id, err: String(error) }, "could not measure a repository");
          }
        }
      }
      return `measured ${measured} repositor${measured === 1 ? "y" : "ies"}${failed ? `, ${failed} could not be read` : ""}`;
    },
  };
}
