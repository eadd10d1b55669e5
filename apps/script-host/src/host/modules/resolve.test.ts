import { describe, expect, it } from "vitest";
import { HostError } from "../errors.js";
import { moduleNameOf, resolveSpecifier } from "./resolve.js";

describe("resolveSpecifier", () => {
  it("resolves relative, absolute and file: specifiers against the containing file", () => {
    expect(resolveSpecifier("./b.ts", "/w/src/a.ts")).toEqual({ kind: "file", path: "/w/src/b.ts" });
    expect(resolveSpecifier("../lib/c.ts", "/w/src/a.ts")).toEqual({ kind: "file", path: "/w/lib/c.ts" });
    expect(resolveSpecifier("/abs/d.ts", "/w/src/a.ts")).toEqual({ kind: "file", path: "/abs/d.ts" });
    expect(resolveSpecifier("file:///x/e%20f.ts", "/w/a.ts")).toEqual({ kind: "file", path: "/x/e f.ts" });
  });

  it("treats a containing path ending in / as a directory (the main module's cwd)", () => {
    expect(resolveSpecifier("./main.ts", "/w/")).toEqual({ kind: "file", path: "/w/main.ts" });
  });

  it("resolves URLs, and relative imports inside a remote module against its URL", () => {
    const remote = resolveSpecifier("./util.ts", "https://x.test/lib/mod.ts");
    expect(remote.kind === "remote" && remote.url.href).toBe("https://x.test/lib/util.ts");
    const rooted = resolveSpecifier("/top.ts", "https://x.test/lib/mod.ts");
    expect(moduleNameOf(rooted)).toBe("https://x.test/top.ts");
    expect(moduleNameOf(resolveSpecifier("http://y.test/a.js", "/w/a.ts"))).toBe("http://y.test/a.js");
  });

  it("refuses bare names, other schemes, and local files imported by remote modules", () => {
    expect(() => resolveSpecifier("fs", "/w/a.ts")).toThrow(/relative import path "fs" not prefixed/);
    expect(() => resolveSpecifier("node:fs", "/w/a.ts")).toThrow(/unsupported scheme "node:"/);
    expect(() => resolveSpecifier("file:///etc/passwd", "https://x.test/a.ts")).toThrow(HostError);
    try {
      resolveSpecifier("npm:left-pad", "/w/a.ts");
    } catch (error) {
      expect((error as HostError).toErrorText()).toMatch(/^TypeError: unsupported scheme "npm:"/);
    }
  });
});
