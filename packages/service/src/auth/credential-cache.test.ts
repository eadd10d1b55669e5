import { parseScopes, type User } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { type CachedCredential, CredentialCache } from "./credential-cache.js";

function credential(userId: number, tokenId: number): CachedCredential {
  const user = { id: userId, name: `u${userId}` } as User;
  return { principal: { user, method: "token", scopes: parseScopes(["all"]) }, tokenId };
}

function clock(start = 1_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe("CredentialCache", () => {
  it("returns an entry until its TTL runs out, by the injected clock", () => {
    const c = clock();
    const cache = new CredentialCache({ ttl: 10_000, now: c.now });
    cache.set("h1", credential(1, 11), cache.stamp());
    c.t += 9_999;
    expect(cache.get("h1")?.tokenId).toBe(11);
    c.t += 1;
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("stores nothing when the TTL is 0", () => {
    const cache = new CredentialCache({ ttl: 0 });
    cache.set("h1", credential(1, 11), cache.stamp());
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most maxEntries, evicting the least recently used", () => {
    const cache = new CredentialCache({ ttl: 10_000, maxEntries: 3 });
    for (const n of [1, 2, 3]) cache.set(`h${n}`, credential(n, n), cache.stamp());
    expect(cache.get("h1")).toBeDefined(); // h2 is now the oldest
    cache.set("h4", credential(4, 4), cache.stamp());
    expect(cache.size).toBe(3);
    expect(cache.get("h2")).toBeUndefined();
    expect(["h1", "h3", "h4"].every((h) => cache.get(h))).toBe(true);
    for (let n = 5; n < 1_000; n++) cache.set(`h${n}`, credential(n, n), cache.stamp());
    expect(cache.size).toBe(3);
  });

  it("forgets a token, or every token of a user, at once", () => {
    const cache = new CredentialCache({ ttl: 10_000 });
    cache.set("a", credential(1, 11), cache.stamp());
    cache.set("b", credential(1, 12), cache.stamp());
    cache.set("c", credential(2, 21), cache.stamp());
    cache.forgetToken(11);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeDefined();
    cache.forgetUser(1);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")?.principal.user.id).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("does not store a lookup that started before an invalidation", () => {
    const cache = new CredentialCache({ ttl: 10_000 });
    const stamp = cache.stamp(); // a request starts reading the token row …
    cache.forgetUser(1); // … the user is changed meanwhile …
    cache.set("a", credential(1, 11), stamp); // … and the stale row must not be kept
    expect(cache.get("a")).toBeUndefined();
    cache.set("a", credential(1, 11), cache.stamp());
    expect(cache.get("a")).toBeDefined();
  });
});
