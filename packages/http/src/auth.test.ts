import { currentTotp, generateTotpSecret, sealSecret } from "@kiln/service";
import { twoFactor } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../test/support.js";

describe.each(DIALECTS)("authentication and scopes over HTTP on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(dialect);
  });
  afterAll(() => t?.close());

  it("answers 401 without credentials on routes that need them, and for bad credentials anywhere", async () => {
    const none = await t.call("GET", "/user");
    expect(none.status).toBe(401);
    expect(none.json).toEqual({ message: "token is required", url: "http://kiln.test/api/swagger" });
    expect((await t.call("GET", "/user", { token: "deadbeef" })).status).toBe(401);
    expect((await t.call("GET", "/version", { token: "deadbeef" })).status).toBe(401);
    expect((await t.call("GET", "/version")).status).toBe(200);
    expect((await t.call("GET", "/user", { headers: { Authorization: "Digest abc" } })).status).toBe(401);
  });

  it("accepts `token`, `Bearer` and Basic auth carrying a token or a password", async () => {
    const u = await t.user();
    for (const headers of [
      { Authorization: `token ${u.token}` },
      { Authorization: `Bearer ${u.token}` },
      { Authorization: `bearer ${u.token}` },
      { Authorization: `Basic ${Buffer.from(`${u.name}:${u.token}`).toString("base64")}` },
      { Authorization: `Basic ${Buffer.from(`${u.token}:x-oauth-basic`).toString("base64")}` },
      { Authorization: `Basic ${Buffer.from(`${u.name}:password1`).toString("base64")}` },
    ]) {
      const res = await t.call("GET", "/user", { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.json.login).toBe(u.name);
    }
    expect((await t.call("GET", "/user", { token: u.token.toUpperCase() })).status).toBe(401);
    expect((await t.call("GET", "/user", { basic: [u.name, "wrong-password"] })).status).toBe(401);
  });

  it("enforces token scopes per route group with Forgejo's 403 message; passwords carry every scope", async () => {
    const u = await t.user();
    const { secret: readUser } = await t.services.tokens.create(
      await t.services.users.getByName(u.name),
      "read-only",
      ["read:user"],
    );
    expect((await t.call("GET", "/user", { token: readUser })).status).toBe(200);
    const post = await t.call("POST", "/user/emails", {
      token: readUser,
      body: { emails: ["x@example.org"] },
    });
    expect(post.status).toBe(403);
    expect(post.json.message).toBe("token does not have at least one of required scope(s): [write:user]");
    const admin = await t.call("GET", "/admin/users", { token: readUser });
    expect(admin.json.message).toBe("token does not have at least one of required scope(s): [read:admin]");
    expect(
      (
        await t.call("POST", "/user/emails", {
          basic: u.basic,
          body: { emails: [`${u.name}-2@example.org`] },
        })
      ).status,
    ).toBe(201);
  });

  it("requires a TOTP passcode in X-Forgejo-OTP or X-Gitea-OTP for enrolled users using a password", async () => {
    const u = await t.user();
    const secret = generateTotpSecret();
    await twoFactor.upsertTwoFactor(t.services.ctx.db, u.id, sealSecret("test-secret", secret));
    const missing = await t.call("GET", "/user", { basic: u.basic });
    expect(missing.status).toBe(401);
    expect(missing.json.message).toBe("invalid provided OTP");
    const ok = await t.call("GET", "/user", {
      basic: u.basic,
      headers: { "X-Forgejo-OTP": currentTotp(secret) },
    });
    expect(ok.status).toBe(200);
    const replay = await t.call("GET", "/user", {
      basic: u.basic,
      headers: { "X-Gitea-OTP": currentTotp(secret) },
    });
    expect(replay.status).toBe(401);
    expect((await t.call("GET", "/user", { token: u.token })).status).toBe(200);
  });

  it("lets site admins act as another user with sudo, and nobody else", async () => {
    const admin = await t.user({ admin: true });
    const u = await t.user();
    const asUser = await t.call("GET", `/user?sudo=${u.name}`, { token: admin.token });
    expect(asUser.json.login).toBe(u.name);
    const viaHeader = await t.call("GET", "/user", { token: admin.token, headers: { Sudo: u.name } });
    expect(viaHeader.json.login).toBe(u.name);
    const denied = await t.call("GET", `/user?sudo=${admin.name}`, { token: u.token });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe("Only administrators allowed to sudo.");
    expect((await t.call("GET", "/user?sudo=nobody-here", { token: admin.token })).status).toBe(404);
  });
});
