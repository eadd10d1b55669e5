import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("[packages] settings", () => {
  it("defaults to Forgejo's: enabled, no limits, files under the data directory", () => {
    const p = load("").packages;
    expect(p.enabled).toBe(true);
    expect(p.path).toBe("/srv/kiln/data/packages");
    expect(p.limitTotalOwnerCount).toBe(-1);
    expect(p.limitTotalOwnerSize).toBe(-1);
    expect(p.limitSize.generic).toBe(-1);
    expect(p.limitSize.npm).toBe(-1);
  });

  it("reads the keys, sizes with units, and Forgejo's storage sections for the path", () => {
    const p = load(
      "[packages]\nENABLED = false\nPATH = pkgs\nLIMIT_TOTAL_OWNER_COUNT = 10\nLIMIT_TOTAL_OWNER_SIZE = 1GiB\nLIMIT_SIZE_GENERIC = 100MiB\nLIMIT_SIZE_NPM = 2k",
    ).packages;
    expect(p).toMatchObject({ enabled: false, path: "/srv/kiln/pkgs", limitTotalOwnerCount: 10 });
    expect(p.limitTotalOwnerSize).toBe(1024 ** 3);
    expect(p.limitSize.generic).toBe(100 * 1024 ** 2);
    expect(p.limitSize.npm).toBe(2000);
    expect(load("[storage]\nPATH = /mnt/store").packages.path).toBe("/mnt/store/packages");
    expect(load("[storage.packages]\nPATH = /mnt/pkg").packages.path).toBe("/mnt/pkg");
  });

  it("stops start-up for a limit that is not a size", () => {
    expect(() => load("[packages]\nLIMIT_SIZE_NPM = lots")).toThrow(ConfigError);
    expect(() => load("[packages]\nLIMIT_SIZE_NPM = lots")).toThrow("[packages] LIMIT_SIZE_NPM");
    expect(() => load("[packages]\nLIMIT_TOTAL_OWNER_COUNT = -2")).toThrow(ConfigError);
  });
});
