import { formatScopes } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { grantTokenScopes, scopeContains } from "./oauth2-scope.js";

describe("grantTokenScopes (Forgejo's grantAdditionalScopes)", () => {
  it("gives `all` when the grant names no API scope", () => {
    expect(formatScopes(grantTokenScopes(""))).toBe("all");
    expect(formatScopes(grantTokenScopes("openid profile email groups"))).toBe("all");
    expect(formatScopes(grantTokenScopes("openid unknown:thing"))).toBe("all");
  });

  it("keeps the access token scopes and drops OIDC and unknown ones", () => {
    expect(formatScopes(grantTokenScopes("openid read:user write:repository bogus"))).toBe(
      "write:repository,read:user",
    );
    expect(formatScopes(grantTokenScopes("public-only read:repository"))).toBe("public-only,read:repository");
  });
});

describe("scopeContains", () => {
  it("matches whole space-separated names only", () => {
    expect(scopeContains("openid profile", "openid")).toBe(true);
    expect(scopeContains("openidx profile", "openid")).toBe(false);
    expect(scopeContains("", "openid")).toBe(false);
  });
});
