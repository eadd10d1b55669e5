import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("[database] PGLITE_SHARED_BUFFERS", () => {
  it("defaults to a small buffer pool (16 MiB)", () => {
    expect(load("").database).toMatchObject({ type: "pglite", sharedBuffers: 16 * 1024 * 1024 });
  });

  it("takes a byte size for larger instances", () => {
    expect(load("[database]\nPGLITE_SHARED_BUFFERS = 256MiB").database).toMatchObject({
      type: "pglite",
      sharedBuffers: 256 * 1024 * 1024,
    });
  });

  it("refuses a value that is not a size or outside PostgreSQL's and PGlite's bounds", () => {
    for (const value of ["lots", "64KiB", "2GiB"]) {
      expect(() => load(`[database]\nPGLITE_SHARED_BUFFERS = ${value}`)).toThrow(ConfigError);
    }
    expect(() => load("[database]\nPGLITE_SHARED_BUFFERS = 2GiB")).toThrow(/PGLITE_SHARED_BUFFERS/);
  });
});
