import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSettings } from "@kiln/domain";
import { createServices, type Services, silentLogger } from "@kiln/service";
import { openTestDatabase, type TestDatabase } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_DRIFT } from "./exit-codes.js";
import { runInstanceCommand } from "./instance-commands.js";

async function* bytes(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text);
}

describe("kiln doctor quota: stored files no row refers to", () => {
  let database: TestDatabase;
  let services: Services;
  const work = mkdtempSync(join(tmpdir(), "kiln-doctor-orphans-"));
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    services = createServices({
      db: database.db,
      settings: defaultSettings(work, { security: { secretKey: "k" } }),
      logger: silentLogger,
    });
  });
  afterAll(async () => {
    await database?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function run(args: object) {
    const out: string[] = [];
    const code = await runInstanceCommand(
      {
        services,
        settings: services.ctx.settings,
        migrated: [],
        io: { out: (t) => out.push(t), err: () => {}, progress: () => {} },
      },
      "doctor.quota",
      args,
    );
    return { code, out };
  }

  it("reports each kind's orphan files (exit 3), and is clean once the sweep removed them", async () => {
    const clean = await run({});
    expect(clean.code).toBe(0);
    expect(clean.out).toContain("Checked the stored attachments: no orphan file.");
    // Bytes stored by an upload whose row was never written (a crash between the two).
    const left = await services.attachments.store.put(bytes("left behind"), { maxBytes: 100 });
    // The process that stored them is gone, and its hold on them with it (no row was written).
    await services.attachments.store.release(left.key, { keep: true, referenced: async () => new Set() });
    const found = await run({});
    expect(found.code).toBe(EXIT_DRIFT);
    expect(found.out).toContain(
      "orphan: 1 stored file of attachments no row refers to; run 'kiln doctor quota --fix' or 'kiln admin cron run sweep_attachments'.",
    );
    // Younger than an hour: --fix leaves it to the sweep (it may be an upload about to be recorded).
    const fixed = await run({ fix: true });
    expect(fixed.code).toBe(0);
    expect(fixed.out.some((l) => l.includes("younger than an hour"))).toBe(true);
    await services.cron.sweepBlobsAtStartup();
    expect((await run({})).code).toBe(0);
  });
});
