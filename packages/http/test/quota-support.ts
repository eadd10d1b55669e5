import type { UsageDelta } from "@kiln/service";
import { repositories } from "@kiln/storage";
import { uniqueName } from "@kiln/storage/testing";
import type { TestApp } from "./support.js";

/**
 * Stores a repository for an owner and records it in the quota ledger, in one transaction, as the
 * repository API will (it is built separately; quota tests store repositories directly).
 */
export async function addRepository(
  t: TestApp,
  owner: { id: number; name: string },
  opts: { isPrivate?: boolean; gitSize: number; lfsSize?: number },
): Promise<void> {
  await t.services.ctx.db.transaction().execute(async (trx) => {
    const name = uniqueName("repo");
    const repo = await repositories.insertRepository(trx, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
      isPrivate: opts.isPrivate ?? false,
      gitSize: opts.gitSize,
      lfsSize: opts.lfsSize ?? 0,
    });
    await t.services.ledger.recordRepositoryChange(trx, undefined, repo);
  });
}

/**
 * Records usage of kinds Kiln does not store yet (attachments, packages, artifacts) straight
 * through the ledger, the one writer of the counters those features will call.
 */
export async function recordUsage(t: TestApp, ownerId: number, delta: UsageDelta): Promise<void> {
  await t.services.ctx.db.transaction().execute((trx) => t.services.ledger.record(trx, ownerId, delta));
}
