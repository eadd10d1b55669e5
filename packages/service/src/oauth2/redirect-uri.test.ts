import type { OAuth2ApplicationRecord } from "@kiln/storage";
import { describe, expect, it } from "vitest";
import { codeRedirect, containsRedirectUri, errorRedirect } from "./redirect-uri.js";

const app = (confidentialClient: boolean, redirectUris: string[]): OAuth2ApplicationRecord => ({
  id: 1,
  uid: 1,
  name: "a",
  clientId: "c",
  clientSecretHash: "",
  confidentialClient,
  redirectUris,
  createdAt: new Date(),
});

describe("containsRedirectUri (Forgejo's ContainsRedirectURI)", () => {
  it("matches registered URIs, ignoring case and a trailing slash", () => {
    const a = app(true, ["https://app.example/Callback/"]);
    expect(containsRedirectUri(a, "https://app.example/callback")).toBe(true);
    expect(containsRedirectUri(a, "https://app.example/callback/other")).toBe(false);
    expect(containsRedirectUri(a, "https://app.example/callback?x=1")).toBe(false);
  });

  it("lets public clients pick any port on a loopback http URI (RFC 8252), not confidential ones", () => {
    expect(containsRedirectUri(app(false, ["http://127.0.0.1/cb"]), "http://127.0.0.1:53124/cb")).toBe(true);
    expect(containsRedirectUri(app(false, ["http://[::1]/cb"]), "http://[::1]:8080/cb")).toBe(true);
    expect(containsRedirectUri(app(true, ["http://127.0.0.1/cb"]), "http://127.0.0.1:53124/cb")).toBe(false);
    expect(containsRedirectUri(app(false, ["http://app.example/cb"]), "http://app.example:81/cb")).toBe(
      false,
    );
  });
});

describe("redirects back to the client", () => {
  it("adds the code and state, keeping the URI's own query", () => {
    const url = new URL(codeRedirect("https://app.example/cb?keep=1", "abc", "s t"));
    expect(url.searchParams.get("keep")).toBe("1");
    expect(url.searchParams.get("code")).toBe("abc");
    expect(url.searchParams.get("state")).toBe("s t");
    expect(new URL(codeRedirect("https://app.example/cb", "abc", "")).searchParams.has("state")).toBe(false);
  });

  it("carries errors with their description and state", () => {
    const url = new URL(
      errorRedirect("https://app.example/cb", { code: "access_denied", description: "denied", state: "s" }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      error: "access_denied",
      error_description: "denied",
      state: "s",
    });
  });
});
