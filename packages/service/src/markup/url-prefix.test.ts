import { describe, expect, it } from "vitest";
import { urlPrefix } from "./markup-service.js";

describe("the URL prefix of a rendering", () => {
  it("joins a context to the root URL without doubled or trailing slashes", () => {
    expect(urlPrefix("http://kiln.test/", "/alice/repo/")).toBe("http://kiln.test/alice/repo");
    expect(urlPrefix("http://kiln.test/", "")).toBe("http://kiln.test");
    expect(urlPrefix("http://kiln.test/", "https://elsewhere.test/x//")).toBe("https://elsewhere.test/x");
  });

  it("trims a context of a million slashes in one pass (a trailing-run expression took minutes)", () => {
    const slashes = "/".repeat(1_000_000);
    expect(urlPrefix("http://kiln.test/", `${slashes}a${slashes}b`)).toBe(`http://kiln.test/a${slashes}b`);
  });
});
