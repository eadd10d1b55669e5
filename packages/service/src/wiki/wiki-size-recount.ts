import { adminRepos } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { CronTask } from "../cron/cron-task.js";
import type { WikiService } from "./wiki-service.js";

/**
 * The `update_wiki_size` cron task: re-measures every repository wiki on disk and records each
 * change of its owner's `wiki` usage, in batches (the wiki's counterpart of
 * `update_repository_size`; `kiln doctor quota` compares the ledger with the recorded sizes).
 */
export function wikiSizeRecountTask(ctx: ServiceContext, wikis: WikiService): CronTask {
  return {
    name: "update_wiki_size",
    description: "Re-measure every repository wiki on disk and record its size as its owner's usage",
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
            if (await wikis.refreshSize(id)) measured++;
          } catch (error) {
            failed++;
            ctx.logger.warn({ repoId: id, err: String(error) }, "could not measure a wiki");
          }
        }
      }
      return `measured ${measured} wiki${measured === 1 ? "" : "s"}${failed ? `, ${failed} could not be read` : ""}`;
    },
  };
}
