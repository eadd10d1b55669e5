import { describe, expect, it } from "vitest";
import { parseOptions, UsageError } from "./options.js";

describe("parseOptions", () => {
  it("reads flags before the script and leaves everything after it to the script", () => {
    const options = parseOptions(["--allow-net", "--cachedir", "/c", "--debug", "a.ts", "--reload", "x"]);
    expect(options).toMatchObject({ debug: true, reload: false, cacheDir: "/c" });
    expect(options.permissions).toEqual({ allowRead: undefined, allowNet: "all", allowImport: undefined });
    expect(options.argv).toEqual(["a.ts", "--reload", "x"]);
  });

  it("accepts --flag=value and --flag value for the numeric limits", () => {
    expect(parseOptions(["--memory-limit=64", "--timeout", "1.5", "a.ts"])).toMatchObject({
      memoryLimitMb: 64,
      timeoutSeconds: 1.5,
    });
  });

  it("reads permission lists only after =, never from the next argument", () => {
    const options = parseOptions([
      "--allow-read=lib,/data",
      "--allow-import=deno.land,127.0.0.1:8080",
      "--allow-net",
      "a.ts",
    ]);
    expect(options.permissions).toEqual({
      allowRead: ["lib", "/data"],
      allowImport: ["deno.land", "127.0.0.1:8080"],
      allowNet: "all",
    });
    expect(options.argv).toEqual(["a.ts"]);
    expect(parseOptions(["-A", "a.ts"]).permissions).toEqual({
      allowRead: "all",
      allowNet: "all",
      allowImport: "all",
    });
    expect(() => parseOptions(["--allow-net=", "a.ts"])).toThrow(/needs at least one entry/);
    expect(() => parseOptions(["--allow-net=a b:c", "a.ts"])).toThrow(UsageError);
  });

  it("reads the size limits in MiB and the timer limit as a count", () => {
    expect(parseOptions(["--max-module-size=0.5", "--max-timers", "10", "a.ts"]).limits).toEqual({
      maxModuleBytes: 512 * 1024,
      maxTimers: 10,
    });
  });

  it("treats -- as the end of the flags", () => {
    expect(parseOptions(["--", "--odd-name.ts"]).argv).toEqual(["--odd-name.ts"]);
  });

  it("rejects unknown flags, bad numbers and a missing script", () => {
    expect(() => parseOptions(["--nope", "a.ts"])).toThrow(UsageError);
    expect(() => parseOptions(["--timeout", "soon", "a.ts"])).toThrow(
      /--timeout needs a positive number, got "soon"/,
    );
    expect(() => parseOptions(["--memory-limit", "0", "a.ts"])).toThrow(UsageError);
    expect(() => parseOptions(["--cachedir"])).toThrow(/--cachedir needs a directory/);
    expect(() => parseOptions(["--debug"])).toThrow(/no script given/);
  });

  it("needs no script for --help", () => {
    expect(parseOptions(["--help"]).help).toBe(true);
  });
});
