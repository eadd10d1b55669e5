import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { openTestServices, useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";
import { credentialCacheOf } from "./credential-cache.js";
import { hashTokenSecret } from "./token-secret.js";

describe.each(DIALECTS)("the credential cache behind token authentication on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  async function userWithToken() {
    const username = uniqueName("cc");
    const user = await s.users.create({ username, email: `${username}@example.com`, password: "password1" });
    const { secret } = await s.tokens.create(user, "t", ["all"]);
    return { user, secret, token: { kind: "token", token: secret } as const };
  }

  it("serves a token from the cache after its first use, also through Basic auth", async () => {
    const { user, secret, token } = await userWithToken();
    const cache = credentialCacheOf(s.ctx);
    expect(cache.get(hashTokenSecret(secret))).toBeUndefined();
    const first = await s.auth.authenticate(token);
    expect(cache.get(hashTokenSecret(secret))?.principal).toBe(first);
    const basic = await s.auth.authenticate({ kind: "basic", username: user.name, password: secret });
    expect(basic).toBe(first);
  });

  it("refuses a deleted token at once", async () => {
    const { user, token } = await userWithToken();
    await s.auth.authenticate(token);
    await s.tokens.delete(user, "t");
    await expect(s.auth.authenticate(token)).rejects.toMatchObject({ kind: "unauthorized" });
  });

  it("sees an admin's change to the account at once (flags, visibility, prohibit-login)", async () => {
    const { user, token } = await userWithToken();
    expect((await s.auth.authenticate(token)).user.isAdmin).toBe(false);
    await s.users.adminEdit(user, { admin: true, restricted: true, visibility: "limited" });
    const p = await s.auth.authenticate(token);
    expect(p.user).toMatchObject({ isAdmin: true, isRestricted: true, visibility: "limited" });
    await s.users.adminEdit(p.user, { prohibitLogin: true });
    await expect(s.auth.authenticate(token)).rejects.toMatchObject({ kind: "permission_denied" });
    await s.users.adminEdit(p.user, { prohibitLogin: false, active: false });
    await expect(s.auth.authenticate(token)).rejects.toMatchObject({ kind: "permission_denied" });
    await s.users.adminEdit(p.user, { active: true, mustChangePassword: true });
    await expect(s.auth.authenticate(token)).rejects.toThrow(/^You must change your password/);
  });

  it("sees the user's own settings change and refuses the tokens of a deleted account", async () => {
    const { user, token } = await userWithToken();
    await s.auth.authenticate(token);
    await s.users.updateSettings(user, { fullName: "New Name" });
    expect((await s.auth.authenticate(token)).user.fullName).toBe("New Name");
    await s.users.delete(user, null, { purge: false });
    await expect(s.auth.authenticate(token)).rejects.toMatchObject({ kind: "unauthorized" });
  });

  it("never remembers a failure: a token created after a miss is accepted", async () => {
    const { user } = await userWithToken();
    await expect(s.auth.authenticate({ kind: "token", token: "f".repeat(40) })).rejects.toMatchObject({
      kind: "unauthorized",
    });
    const { secret } = await s.tokens.create(user, "later", ["read:user"]);
    await expect(s.auth.authenticate({ kind: "token", token: secret })).resolves.toMatchObject({
      method: "token",
    });
  });

  it("is off with CREDENTIAL_CACHE_TTL = 0", async () => {
    const opened = await openTestServices(dialect, { security: { credentialCacheTtl: 0 } });
    try {
      const o = opened.services;
      const u = await o.users.create({
        username: uniqueName("nc"),
        email: `${uniqueName("nc")}@e.org`,
        password: "password1",
      });
      const { secret } = await o.tokens.create(u, "t", ["all"]);
      await o.auth.authenticate({ kind: "token", token: secret });
      expect(credentialCacheOf(o.ctx).size).toBe(0);
    } finally {
      await opened.database.close();
    }
  });
});
