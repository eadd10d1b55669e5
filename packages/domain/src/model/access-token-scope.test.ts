import { describe, expect, it } from "vitest";
import {
  formatScopes,
  hasScopes,
  InvalidScopeError,
  parseScopes,
  requiredScopeNames,
} from "./access-token-scope.js";

describe("access token scopes", () => {
  it("normalizes like Forgejo: write implies read, every write collapses to all", () => {
    expect(formatScopes(parseScopes(["read:user", "write:user"]))).toBe("write:user");
    expect(formatScopes(parseScopes("write:repository,read:issue,public-only"))).toBe(
      "public-only,read:issue,write:repository",
    );
    expect(formatScopes(parseScopes(["all"]))).toBe("all");
    const everyWrite = [
      "write:activitypub",
      "write:admin",
      "write:misc",
      "write:notification",
      "write:organization",
      "write:package",
      "write:issue",
      "write:repository",
      "write:user",
    ];
    expect(formatScopes(parseScopes(everyWrite))).toBe("all");
    expect(formatScopes(parseScopes([]))).toBe("");
  });

  it("rejects unknown scopes with Forgejo's message", () => {
    expect(() => parseScopes(["read:everything"])).toThrow(InvalidScopeError);
    expect(() => parseScopes(["admin"])).toThrow("invalid access token scope: admin");
  });

  it("grants a level per category, requiring all listed categories", () => {
    const s = parseScopes(["read:user", "write:organization"]);
    expect(hasScopes(s, "read", ["user"])).toBe(true);
    expect(hasScopes(s, "write", ["user"])).toBe(false);
    expect(hasScopes(s, "write", ["organization"])).toBe(true);
    expect(hasScopes(s, "read", ["user", "organization"])).toBe(true);
    expect(hasScopes(s, "read", ["user", "repository"])).toBe(false);
    expect(hasScopes(parseScopes("all"), "write", ["admin", "user"])).toBe(true);
    expect(requiredScopeNames("read", ["admin"])).toEqual(["read:admin"]);
  });
});
