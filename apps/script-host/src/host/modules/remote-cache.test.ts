import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { depsPathOf } from "./remote-cache.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("depsPathOf", () => {
  it("lays remote modules out by scheme, host and port, and a hash of the URL", () => {
    expect(depsPathOf("/c", new URL("https://x.test/a/b.ts#x"))).toBe(
      `/c/deps/https/x.test/${sha("https://x.test/a/b.ts")}`,
    );
    expect(depsPathOf("/c", new URL("http://127.0.0.1:8080/m.js?v=1"))).toBe(
      `/c/deps/http/127.0.0.1_8080/${sha("http://127.0.0.1:8080/m.js?v=1")}`,
    );
  });

  it("gives every URL a file of its own: encodings, empty segments, queries, directories and ports", () => {
    const urls = [
      "http://h.test/a/b.js",
      "http://h.test/a%2Fb.js",
      "http://h.test/a//b.js",
      "http://h.test/a/b.js?",
      "http://h.test/a/b.js?v=1",
      "http://h.test/a/b.js_055e01147cc8cc23",
      "http://h.test/x/..%2Fy.js",
      "http://h.test/x/y.js",
      "http://h.test/s/",
      "http://h.test/s/_index",
      "http://h.test/a",
      "http://h.test:8080/a/b.js",
      "http://h.test_8080/a/b.js",
      "https://h.test/a/b.js",
      "http://[::1]:8080/a/b.js",
    ];
    const paths = urls.map((url) => depsPathOf("/c", new URL(url)));
    expect(new Set(paths).size).toBe(urls.length);
  });

  it("never leaves the cache directory, whatever the host or path says", () => {
    for (const url of [
      "https://x.test/a/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "http://../x",
      "http://./x",
      "http://[::1]/x",
    ]) {
      const path = depsPathOf("/c", new URL(url));
      expect(path.startsWith("/c/deps/")).toBe(true);
      expect(path.split("/").filter((segment) => segment === ".." || segment === ".")).toEqual([]);
    }
  });
});
