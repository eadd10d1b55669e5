import { describe, expect, it } from "vitest";
import { depsPathOf } from "./remote-cache.js";

describe("depsPathOf", () => {
  it("lays remote modules out by scheme, host and port, and path", () => {
    expect(depsPathOf("/c", new URL("https://x.test/a/b.ts"))).toBe("/c/deps/https/x.test/a/b.ts");
    expect(depsPathOf("/c", new URL("http://127.0.0.1:8080/m.js"))).toBe("/c/deps/http/127.0.0.1_8080/m.js");
  });

  it("names a directory URL _index and keeps query strings apart by a hash", () => {
    expect(depsPathOf("/c", new URL("https://x.test/dir/"))).toBe("/c/deps/https/x.test/dir/_index");
    const one = depsPathOf("/c", new URL("https://x.test/m.ts?v=1"));
    const two = depsPathOf("/c", new URL("https://x.test/m.ts?v=2"));
    expect(one).toMatch(/^\/c\/deps\/https\/x\.test\/m\.ts_[0-9a-f]{16}$/);
    expect(one).not.toBe(two);
  });

  it("never leaves the cache directory, whatever the path says", () => {
    expect(depsPathOf("/c", new URL("https://x.test/a/%2e%2e/%2e%2e/%2e%2e/etc/passwd"))).toBe(
      "/c/deps/https/x.test/etc/passwd",
    );
  });
});
