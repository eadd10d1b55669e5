import { social, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { EventConsumer } from "../events/recorder.js";

/**
 * Forgejo's `[service] AUTO_WATCH_NEW_REPOS` (default true): whoever creates a repository watches
 * it, and in an organization so do the members of its teams that include every repository (the
 * owners among them), as Forgejo's addRepositoryToTeam. A "don't watch" already set is kept.
 * Runs in the creation's transaction, on the `repository` `created` event.
 */
export function autoWatchConsumer(ctx: ServiceContext): EventConsumer {
  return {
    name: "auto-watch",
    async consume(trx, event) {
      if (event.type !== "repository" || event.action !== "created" || event.repoId === null) return;
      if (!ctx.settings.service.autoWatchNewRepos) return;
      const owner = await users.findUserById(trx, event.ownerId);
      const members =
        owner?.type === "organization" ? await social.allRepositoryTeamMembers(trx, owner.id) : [];
      await social.watchUnlessSet(trx, [event.actorId, ...members], event.repoId, event.at);
    },
  };
}
