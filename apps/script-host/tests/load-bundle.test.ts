import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/** The loader bin/kiln-run.js starts with (the package is built before its tests run). */
const loader = createRequire(import.meta.url)("../bin/load-bundle.js") as {
  bundleStamp(): string;
  cachePath: string;
  compileBundle(data: Buffer | undefined): {
    exports: { main?: unknown };
    script: { cachedDataRejected?: boolean };
  };
};

describe("the host bundle's code cache", () => {
  it("is built for the bundle as it is now, and V8 takes it", () => {
    const file = readFileSync(loader.cachePath);
    const newline = file.indexOf(10);
    expect(file.subarray(0, newline).toString("latin1")).toBe(loader.bundleStamp());
    const { exports, script } = loader.compileBundle(file.subarray(newline + 1));
    expect(script.cachedDataRejected).toBe(false);
    expect(typeof exports.main).toBe("function");
  });

  it("is only a hint: data V8 refuses leaves a bundle compiled from its source", () => {
    const { exports, script } = loader.compileBundle(Buffer.from("not code cache data"));
    expect(script.cachedDataRejected).toBe(true);
    expect(typeof exports.main).toBe("function");
  });
});
