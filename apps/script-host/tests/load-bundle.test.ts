import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The loader bin/kiln-run.js starts with (the package is built before its tests run). */
const loaderPath = fileURLToPath(new URL("../bin/load-bundle.js", import.meta.url));

/**
 * Compiles the bundle in a fresh process started as kiln-run is (`--no-node-snapshot`: V8 only
 * takes code cache data made under the same flags, and a process that compiled the bundle once
 * answers a second compile from its own cache without looking at the data).
 */
function compileInFreshProcess(data: "built" | "junk") {
  const script = `
    const loader = require(${JSON.stringify(loaderPath)});
    const file = require("node:fs").readFileSync(loader.cachePath);
    const newline = file.indexOf(10);
    const data = ${JSON.stringify(data)} === "built" ? file.subarray(newline + 1) : Buffer.from("not code cache data");
    const { exports, script } = loader.compileBundle(data);
    console.log(JSON.stringify({
      stamp: file.subarray(0, newline).toString("latin1"),
      current: loader.bundleStamp(),
      rejected: script.cachedDataRejected,
      main: typeof exports.main,
    }));`;
  const output = execFileSync(process.execPath, ["--no-node-snapshot", "-e", script], { encoding: "utf8" });
  return JSON.parse(output) as { stamp: string; current: string; rejected: boolean; main: string };
}

describe("the host bundle's code cache", () => {
  it("is built for the bundle as it is now and this Node, and V8 takes it", () => {
    const result = compileInFreshProcess("built");
    expect(result.stamp).toBe(result.current);
    expect(result.stamp.startsWith(`${process.version}:`)).toBe(true);
    expect(result.rejected).toBe(false);
    expect(result.main).toBe("function");
  });

  it("is only a hint: data V8 refuses leaves a bundle compiled from its source", () => {
    const result = compileInFreshProcess("junk");
    expect(result.rejected).toBe(true);
    expect(result.main).toBe("function");
  });
});
