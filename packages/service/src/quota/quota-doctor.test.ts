import type { User } from "@kiln/domain";
import { quotaUsage, repositories } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";
import type { UsageDrift } from "./quota-doctor.js";

describe.each(DIALECTS)("kiln doctor quota's recount on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const user = async (): Promise<User> => {
    const name = uniqueName("u");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1" });
  };
  const repo = (owner: User, isPrivate: boolean, gitSize: number, lfsSize: number, db = s.ctx.db) => {
    const name = uniqueName("r");
    return repositories.insertRepository(db, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
      isPrivate,
      gitSize,
      lfsSize,
    });
  };

  it("finds nothing when the ledger agrees, walking every owner in batches with progress", async () => {
    const a = await user();
    await s.ctx.db.transaction().execute(async (trx) => {
      const r = await repo(a, false, 10, 1, trx);
      await s.ledger.recordRepositoryChange(trx, undefined, r);
    });
    const progress: [number, number][] = [];
    const report = await s.quotaDoctor.run({
      fix: false,
      batchSize: 1,
      onProgress: (d, t) => progress.push([d, t]),
    });
    expect(report.drifts).toEqual([]);
    expect(report.owners).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toEqual([0, report.owners]);
    expect(progress.at(-1)).toEqual([report.owners, report.owners]);
    expect(progress).toHaveLength(report.owners + 1);
  });

  it("reports each drifted counter, repairs it with --fix, and then finds nothing", async () => {
    const a = await user();
    const b = await user();
    await repo(a, false, 100, 5); // stored without going through the ledger
    await repo(a, true, 40, 0);
    await quotaUsage.addUsage(s.ctx.db, b.id, { packages: 9 }); // counted, but nothing stores it

    const seen: UsageDrift[] = [];
    const report = await s.quotaDoctor.run({ fix: false, onDrift: (d) => seen.push(d) });
    const mine = report.drifts.filter((d) => d.ownerId === a.id || d.ownerId === b.id);
    expect(mine).toEqual([
      {
        ownerId: a.id,
        ownerName: a.name,
        counter: "reposPublic",
        subject: "size:repos:public",
        ledger: 0,
        recount: 100,
      },
      {
        ownerId: a.id,
        ownerName: a.name,
        counter: "reposPrivate",
        subject: "size:repos:private",
        ledger: 0,
        recount: 40,
      },
      { ownerId: a.id, ownerName: a.name, counter: "lfs", subject: "sizelfs", ledger: 0, recount: 5 },
      {
        ownerId: b.id,
        ownerName: b.name,
        counter: "packages",
        subject: "size:assets:packages:all",
        ledger: 9,
        recount: 0,
      },
    ]);
    expect(seen).toEqual(report.drifts);
    expect(report.driftedOwners).toBeGreaterThanOrEqual(2);
    expect(await quotaUsage.getUsage(s.ctx.db, a.id)).toEqual(quotaUsage.NO_USAGE); // not fixed without --fix

    const fixed = await s.quotaDoctor.run({ fix: true });
    expect(fixed.fixed).toBe(true);
    expect(fixed.drifts.filter((d) => d.ownerId === a.id || d.ownerId === b.id)).toEqual(mine);
    expect(await quotaUsage.getUsage(s.ctx.db, a.id)).toMatchObject({
      reposPublic: 100,
      reposPrivate: 40,
      lfs: 5,
    });
    expect(await quotaUsage.getUsage(s.ctx.db, b.id)).toEqual(quotaUsage.NO_USAGE);
    expect((await s.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
  });
});
