import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("attachment storage and cron settings", () => {
  it("puts attachments where Forgejo's storage sections say", () => {
    expect(load("").attachment.path).toBe("/srv/kiln/data/attachments");
    expect(load("[server]\nAPP_DATA_PATH = /var/kiln").attachment.path).toBe("/var/kiln/attachments");
    expect(load("[storage]\nPATH = /mnt/store").attachment.path).toBe("/mnt/store/attachments");
    expect(load("[storage]\nPATH = /mnt/store\n[storage.attachments]\nPATH = /mnt/att").attachment.path).toBe(
      "/mnt/att",
    );
    expect(load("[storage.attachments]\nPATH = /mnt/att\n[attachment]\nPATH = files").attachment.path).toBe(
      "/srv/kiln/files",
    );
  });

  it("reads release asset types, [cron] ENABLED and [cron.<task>] sections", () => {
    expect(load("").attachment.releaseAllowedTypes).toBe("");
    expect(load("[repository.release]\nALLOWED_TYPES = .zip,.tar.gz").attachment.releaseAllowedTypes).toBe(
      ".zip,.tar.gz",
    );
    expect(load("").cron).toEqual({ enabled: true, tasks: {} });
    const s = load(
      "[cron]\nENABLED = false\n[cron.sweep_attachments]\nENABLED = true\nRUN_AT_START = true\nSCHEDULE = @every 2h\n[cron.other]\nSCHEDULE = @midnight",
    );
    expect(s.cron).toEqual({
      enabled: false,
      tasks: {
        sweep_attachments: { enabled: true, runAtStart: true, schedule: "@every 2h" },
        other: { schedule: "@midnight" },
      },
    });
    expect(() => load("[cron.x]\nENABLED = maybe")).toThrow(ConfigError);
  });
});
