import { describe, expect, it } from "vitest";
import { parseOptions, UsageError } from "./options.js";

describe("parseOptions", () => {
  it("reads flags before the script and leaves everything after it to the script", () => {
    const options = parseOptions(["--allow-net", "--cachedir", "/c", "--debug", "a.ts", "--reload", "x"]);
    expect(options).toMatchObject({ allowNet: true, debug: true, reload: false, cacheDir: "/c" });
    expect(options.argv).toEqual(["a.ts", "--reload", "x"]);
  });

  it("accepts --flag=value and --flag value for the numeric limits", () => {
    expect(parseOptions(["--memory-limit=64", "--timeout", "1.5", "a.ts"])).toMatchObject({
      memoryLimitMb: 64,
      timeoutSeconds: 1.5,
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
