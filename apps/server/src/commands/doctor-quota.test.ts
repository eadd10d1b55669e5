import { defaultSettings } from "@kiln/domain";
import { createServices, type Services, silentLogger } from "@kiln/service";
import { quotaUsage, repositories } from "@kiln/storage";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_DRIFT } from "./exit-codes.js";
import { runInstanceCommand } from "./instance-commands.js";
import type { ProgressUpdate } from "./progress.js";

describe.each(DIALECTS)("kiln doctor quota on %s", (dialect) => {
  let database: TestDatabase;
  let services: Services;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    const settings = defaultSettings("/tmp/kiln-doctor-test", { security: { secretKey: "k" } });
    services = createServices({ db: database.db, settings, logger: silentLogger });
  });
  afterAll(() => database?.close());

  async function run(args: object) {
    const out: string[] = [];
    const err: string[] = [];
    const progress: ProgressUpdate[] = [];
    const code = await runInstanceCommand(
      {
        services,
        settings: services.ctx.settings,
        migrated: [],
        io: { out: (t) => out.push(t), err: (t) => err.push(t), progress: (p) => progress.push(p) },
      },
      "doctor.quota",
      args,
    );
    // Only the ledger's lines: the stored files' check is tested in doctor-orphans.test.ts, the
    // disk's (this repository row has no directory) in doctor-disk.test.ts.
    const ledger = /^((drift|repaired): owner |Checked \d+ owners?:)/;
    return {
      code,
      out: out.filter((line) => ledger.test(line)),
      err,
      progress: progress.filter((p) => p.label === "Recounting quota usage"),
    };
  }

  it("reports each drift and exits 3 without --fix; repairs it with --fix and exits 0; then finds nothing", async () => {
    const name = uniqueName("alice");
    const alice = await services.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    const repo = uniqueName("r");
    // A repository whose bytes never reached the ledger, and a ledger entry nothing stores.
    await repositories.insertRepository(services.ctx.db, {
      ownerId: alice.id,
      ownerName: alice.name,
      name: repo,
      lowerName: repo,
      gitSize: 100,
    });
    await quotaUsage.addUsage(services.ctx.db, alice.id, { packages: 9 });

    const check = await run({});
    expect(check.code).toBe(EXIT_DRIFT);
    expect(check.out).toEqual([
      `drift: owner ${name} (id ${alice.id}), reposPublic (size:repos:public): ledger 0 bytes, recount 100 bytes (+100)`,
      `drift: owner ${name} (id ${alice.id}), packages (size:assets:packages:all): ledger 9 bytes, recount 0 bytes (-9)`,
      "Checked 1 owner: 2 counters of 1 owner differ from the stored data. Run 'kiln doctor quota --fix' to repair.",
    ]);
    expect(check.progress[0]).toMatchObject({ label: "Recounting quota usage", done: 0, total: 1 });
    expect(check.progress.at(-1)).toMatchObject({ done: 1, total: 1 });

    const fix = await run({ fix: true });
    expect(fix.code).toBe(0);
    expect(fix.out[0]).toMatch(/^repaired: owner .*reposPublic/);
    expect(fix.out.at(-1)).toBe("Checked 1 owner: repaired 2 counters of 1 owner.");
    expect(await quotaUsage.getUsage(services.ctx.db, alice.id)).toMatchObject({
      reposPublic: 100,
      packages: 0,
    });

    const again = await run({});
    expect(again.code).toBe(0);
    expect(again.out).toEqual(["Checked 1 owner: the quota ledger matches the stored data."]);
  });

  it("refuses arguments it does not know", async () => {
    expect((await run({ fix: "yes" })).code).toBe(2);
  });
});
