import type { Repository, User } from "@kiln/domain";
import { quotaRecount, quotaUsage, repositories } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

/** A small seeded generator (mulberry32), so every run makes the same changes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rollback extends Error {}

describe.each(DIALECTS)("the quota ledger under concurrent changes on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const user = async (): Promise<User> => {
    const name = uniqueName("u");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1" });
  };

  /** Creates a repository and records it, in one transaction (as the repository API will). */
  const create = (owner: User, gitSize: number): Promise<Repository> =>
    s.ctx.db.transaction().execute(async (trx) => {
      const name = uniqueName("r");
      const repo = await repositories.insertRepository(trx, {
        ownerId: owner.id,
        ownerName: owner.name,
        name,
        lowerName: name,
        gitSize,
      });
      await s.ledger.recordRepositoryChange(trx, undefined, repo);
      return repo;
    });

  it("200 parallel size, visibility, owner changes and deletions leave every counter equal to the recount", async () => {
    const owner = await user();
    const other = await user();
    const repos = await Promise.all(Array.from({ length: 10 }, (_, i) => create(owner, 1000 * (i + 1))));
    const next = random(7);
    let committed = 0;
    let rolledBack = 0;

    const change = async (i: number) => {
      const repoId = repos[i % repos.length]!.id;
      const roll = next();
      const gitSize = Math.floor(next() * 1_000_000);
      const lfsSize = Math.floor(next() * 100_000);
      try {
        await s.ctx.db.transaction().execute(async (trx) => {
          if (i % 50 === 49) {
            // Now and then, a new repository for the owner.
            const name = uniqueName("new");
            const repo = await repositories.insertRepository(trx, {
              ownerId: owner.id,
              ownerName: owner.name,
              name,
              lowerName: name,
              gitSize,
              lfsSize,
            });
            await s.ledger.recordRepositoryChange(trx, undefined, repo);
            return;
          }
          const before = await repositories.lockRepository(trx, repoId);
          if (!before) return; // deleted meanwhile
          if (i === 150) {
            await s.ledger.recordRepositoryChange(trx, before, undefined);
            await repositories.deleteRepository(trx, before.id);
            return;
          }
          const patch = {
            gitSize,
            lfsSize,
            ...(roll < 0.3 ? { isPrivate: !before.isPrivate } : {}),
            ...(roll > 0.9 ? { ownerId: before.ownerId === owner.id ? other.id : owner.id } : {}),
          };
          const after = await repositories.updateRepository(trx, before.id, patch);
          await s.ledger.recordRepositoryChange(trx, before, after);
          // Some transactions fail after recording: their change to the counters must vanish too.
          if (i % 9 === 4) throw new Rollback();
        });
        committed++;
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
        rolledBack++;
      }
    };
    await Promise.all(Array.from({ length: 200 }, (_, i) => change(i)));
    expect(committed + rolledBack).toBe(200);
    expect(rolledBack).toBeGreaterThan(10);

    const recount = await quotaRecount.recountUsage(s.ctx.db, [owner.id, other.id]);
    expect(await quotaUsage.getUsage(s.ctx.db, owner.id)).toEqual(recount.get(owner.id));
    expect(await quotaUsage.getUsage(s.ctx.db, other.id)).toEqual(recount.get(other.id));
    // The work really happened: both owners hold bytes, public and private.
    expect(recount.get(owner.id)!.reposPublic + recount.get(owner.id)!.reposPrivate).toBeGreaterThan(0);
    const report = await s.quotaDoctor.run({ fix: false });
    expect(report.drifts).toEqual([]);
  });
});
