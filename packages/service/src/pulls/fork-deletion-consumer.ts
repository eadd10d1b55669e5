import { issues, pulls, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { EventConsumer } from "../events/recorder.js";
import { changeIssueStatus } from "../issues/issue-status.js";

/** At most this many pull requests are closed with a deleted repository (the rest at their next check). */
const MAX_CLOSED = 1000;

/**
 * Forgejo's CloseRepoBranchesPulls: when a repository is deleted, the open pull requests whose head
 * is in it and whose base is elsewhere (a fork's) are closed by the deleter, in the deletion's
 * transaction (the `repository deleted` event comes while its rows are still there). A pull
 * request left over (a deletion without a doer, or beyond the bound) is closed at its next check,
 * as one whose head branch is gone.
 */
export function forkDeletionConsumer(ctx: ServiceContext): EventConsumer {
  return {
    name: "fork-deletion-pulls",
    async consume(trx, event) {
      if (event.type !== "repository" || event.action !== "deleted" || event.repoId === null) return;
      const at = event.at;
      const bases = new Map<number, Awaited<ReturnType<typeof repositories.findRepositoryById>>>();
      for (const pull of await pulls.openPullsFromHead(trx, event.repoId, { limit: MAX_CLOSED })) {
        if (!bases.has(pull.baseRepoId))
          bases.set(pull.baseRepoId, await repositories.findRepositoryById(trx, pull.baseRepoId));
        const base = bases.get(pull.baseRepoId);
        const issue = await issues.findIssueById(trx, pull.issueId);
        if (!base || !issue) continue;
        await changeIssueStatus(trx, ctx.events, {
          issue,
          repo: base,
          doerId: event.actorId,
          closing: true,
          at,
        });
      }
    },
  };
}
