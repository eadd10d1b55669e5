import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FsBlobStore } from "@kiln/blobs";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../context.js";
import { countUnreferenced } from "./blob-sweep.js";
import { CronRegistry, type CronTask } from "./cron-registry.js";

const task = (name: string, run: CronTask["run"], extra: Partial<CronTask> = {}): CronTask => ({
  name,
  description: name,
  schedule: "@every 1h",
  run,
  ...extra,
});

async function* bytes(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text);
}

describe("CronRegistry", () => {
  const registries: CronRegistry[] = [];
  const make = (settings = { enabled: true, tasks: {} }) => {
    const r = new CronRegistry(settings, silentLogger);
    registries.push(r);
    return r;
  };
  afterEach(async () => {
    for (const r of registries.splice(0)) await r.stop();
  });

  it("runs a task on demand, counting runs and keeping the last outcome; unknown tasks are undefined", async () => {
    const cron = make();
    let calls = 0;
    cron.register(task("count", async () => `call ${++calls}`));
    cron.register(task("broken", async () => Promise.reject(new Error("disk on fire"))));
    expect(await cron.run("count")).toMatchObject({ name: "count", status: "finished", message: "call 1" });
    expect(await cron.run("broken")).toMatchObject({ status: "error", message: "disk on fire" });
    expect(cron.run("nope")).toBeUndefined();
    const [count, broken] = cron.list();
    expect(count).toMatchObject({
      name: "count",
      schedule: "@every 1h",
      execTimes: 1,
      lastStatus: "finished",
      running: false,
    });
    expect(count?.prev).toBeInstanceOf(Date);
    expect(count?.next).toBeNull(); // not started
    expect(broken).toMatchObject({ execTimes: 1, lastStatus: "error", lastMessage: "disk on fire" });
  });

  it("never runs a task twice at once: a second request joins the run going on", async () => {
    const cron = make();
    let release!: () => void;
    let runs = 0;
    cron.register(
      task("slow", async () => {
        runs++;
        await new Promise<void>((r) => {
          release = r;
        });
        return "done";
      }),
    );
    const first = cron.run("slow");
    const second = cron.run("slow");
    expect(cron.list()[0]?.running).toBe(true);
    release();
    expect(await second).toEqual(await first);
    expect(runs).toBe(1);
  });

  it("takes [cron.<task>] settings over a task's defaults and refuses bad names and schedules", async () => {
    const cron = make({
      enabled: true,
      tasks: { quiet: { enabled: false }, often: { schedule: "@every 5m", runAtStart: true } },
    });
    let ran = 0;
    cron.register(task("quiet", async () => "x", { runAtStart: true }));
    cron.register(task("often", async () => `ran ${++ran}`));
    expect(() => cron.register(task("often", async () => ""))).toThrow(/twice/);
    expect(() => cron.register(task("Bad-Name", async () => ""))).toThrow(/not \[a-z0-9_\]/);
    expect(() => cron.register(task("weird", async () => "", { schedule: "@sometimes" }))).toThrow(
      /invalid schedule/,
    );
    cron.start();
    const [quiet, often] = cron.list();
    expect(quiet).toMatchObject({ schedule: "-", next: null, execTimes: 0 });
    expect(often?.schedule).toBe("@every 5m");
    expect((often?.next?.getTime() ?? 0) - Date.now()).toBeGreaterThan(4 * 60_000);
    await cron.run("often"); // joins the start-up run
    expect(ran).toBe(1);
    await cron.stop();
    expect(cron.list()[1]?.next).toBeNull();
  });

  it("with [cron] ENABLED = false schedules nothing, but tasks still run on demand", async () => {
    const cron = make({ enabled: false, tasks: {} });
    cron.register(task("t", async () => "ok", { runAtStart: true }));
    cron.start();
    expect(cron.list()[0]).toMatchObject({ next: null, execTimes: 0 });
    expect(await cron.run("t")).toMatchObject({ status: "finished" });
  });

  it("runs a task when its time comes", async () => {
    const cron = make();
    let resolveRun!: (v: string) => void;
    const ran = new Promise<string>((r) => {
      resolveRun = r;
    });
    cron.register(
      task(
        "tick",
        async () => {
          resolveRun("ticked");
          return "ticked";
        },
        { schedule: "@every 1s" },
      ),
    );
    cron.start();
    expect(await ran).toBe("ticked");
  });

  describe("blob kinds", () => {
    let root: string;
    afterEach(() => rm(root, { recursive: true, force: true }));

    it("register a sweep task, sweep everything unreferenced at start-up and count orphans for the doctor", async () => {
      root = await mkdtemp(join(tmpdir(), "kiln-cron-"));
      const store = new FsBlobStore(root);
      const kept = await store.put(bytes("kept"), { maxBytes: 100 });
      const orphan = await store.put(bytes("orphan"), { maxBytes: 100 });
      await writeFile(join(root, ".tmp", "half-upload"), "half");
      const cron = make();
      const kind = {
        name: "things",
        store,
        referenced: async (keys: readonly string[]) => new Set(keys.filter((k) => k === kept.key)),
      };
      // Both uploads were recorded; the record of `orphan` went later.
      for (const key of [kept.key, orphan.key])
        await store.release(key, { keep: true, referenced: kind.referenced });
      cron.registerBlobKind(kind);
      expect(cron.list().map((t) => t.name)).toEqual(["sweep_things"]);
      expect(await countUnreferenced(kind)).toBe(1);
      // The scheduled sweep keeps young files (an upload may be about to be recorded)…
      expect(await cron.run("sweep_things")).toMatchObject({
        status: "finished",
        message: "removed 0 files",
      });
      const past = new Date(Date.now() - 2 * 3_600_000);
      await utimes(join(root, orphan.key.slice(0, 2), orphan.key.slice(2, 4), orphan.key), past, past);
      expect(await cron.run("sweep_things")).toMatchObject({ message: "removed 1 file" });
      // …the start-up sweep does not wait.
      await cron.sweepBlobsAtStartup();
      expect(await readdir(join(root, ".tmp"))).toEqual([]);
      expect(await store.size(kept.key)).toBe(4);
      expect(await countUnreferenced(kind)).toBe(0);
    });
  });
});
