import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("Actions artifact settings", () => {
  it("puts artifacts where Forgejo's storage sections say, keeping them 90 days and up to 2 GiB by default", () => {
    expect(load("").actions).toEqual({
      artifactsPath: "/srv/kiln/data/actions_artifacts",
      artifactRetentionDays: 90,
      artifactMaxSize: 2 * 1024 ** 3,
    });
    expect(load("[storage]\nPATH = /mnt/store").actions.artifactsPath).toBe("/mnt/store/actions_artifacts");
    expect(load("[storage.actions_artifacts]\nPATH = /mnt/a").actions.artifactsPath).toBe("/mnt/a");
    expect(
      load("[storage.actions_artifacts]\nPATH = /mnt/a\n[actions.artifacts]\nPATH = art").actions,
    ).toMatchObject({ artifactsPath: "/srv/kiln/art" });
  });

  it("reads ARTIFACT_RETENTION_DAYS and ARTIFACT_MAX_SIZE, refusing values it cannot use", () => {
    const s = load("[actions]\nARTIFACT_RETENTION_DAYS = 7\nARTIFACT_MAX_SIZE = 10MiB");
    expect(s.actions).toMatchObject({ artifactRetentionDays: 7, artifactMaxSize: 10 * 1024 * 1024 });
    expect(() => load("[actions]\nARTIFACT_RETENTION_DAYS = 0")).toThrow(ConfigError);
    expect(() => load("[actions]\nARTIFACT_MAX_SIZE = lots")).toThrow(ConfigError);
  });
});
