import { oauth2Grants, twoFactor, users } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { openTestServices, useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";
import { sealSecret } from "./secret-box.js";
import { currentTotp, generateTotpSecret } from "./totp.js";

describe.each(DIALECTS)("authentication on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  async function newUser(
    extra: Parameters<Services["users"]["create"]>[0] extends infer T ? Partial<T> : never = {},
  ) {
    const username = uniqueName("u");
    const user = await s.users.create({
      username,
      email: `${username}@example.com`,
      password: "password1",
      ...extra,
    });
    return user;
  }

  it("accepts a token in a header or in Basic auth (as password, or as username)", async () => {
    const user = await newUser();
    const { secret } = await s.tokens.create(user, "cli", ["read:user"]);
    for (const credentials of [
      { kind: "token", token: secret } as const,
      { kind: "basic", username: user.name, password: secret } as const,
      { kind: "basic", username: secret, password: "" } as const,
      { kind: "basic", username: secret, password: "x-oauth-basic" } as const,
    ]) {
      const p = await s.auth.authenticate(credentials);
      expect(p.user.id).toBe(user.id);
      expect(p.method).toBe("token");
      expect(p.scopes?.levels.get("user")).toBe("read");
    }
    await expect(s.auth.authenticate({ kind: "token", token: "0".repeat(40) })).rejects.toMatchObject({
      kind: "unauthorized",
    });
  });

  it("accepts the account password by name or e-mail, and nothing else", async () => {
    const user = await newUser();
    const p = await s.auth.authenticate({
      kind: "basic",
      username: user.email.toUpperCase(),
      password: "password1",
    });
    expect(p).toMatchObject({ method: "password", scopes: null });
    expect(p.user.id).toBe(user.id);
    await expect(
      s.auth.authenticate({ kind: "basic", username: user.name, password: "nope-nope" }),
    ).rejects.toThrow("wrong username or password");
    await expect(
      s.auth.authenticate({ kind: "basic", username: "ghost-user-x", password: "password1" }),
    ).rejects.toThrow("wrong username or password");
  });

  it("requires a fresh TOTP passcode from enrolled users on password login", async () => {
    const user = await newUser();
    const secret = generateTotpSecret();
    await twoFactor.upsertTwoFactor(s.ctx.db, user.id, sealSecret(s.ctx.settings.security.secretKey, secret));
    const basic = { kind: "basic", username: user.name, password: "password1" } as const;
    await expect(s.auth.authenticate(basic)).rejects.toThrow("invalid provided OTP");
    await expect(s.auth.authenticate({ ...basic, otp: "000000" })).rejects.toThrow("invalid provided OTP");
    const otp = currentTotp(secret);
    await expect(s.auth.authenticate({ ...basic, otp })).resolves.toMatchObject({ method: "password" });
    await expect(s.auth.authenticate({ ...basic, otp })).rejects.toThrow("invalid provided OTP");
  });

  it("locks the second factor after five wrong codes, even when they arrive concurrently", async () => {
    const user = await newUser();
    const secret = generateTotpSecret();
    await twoFactor.upsertTwoFactor(s.ctx.db, user.id, sealSecret(s.ctx.settings.security.secretKey, secret));
    const basic = { kind: "basic", username: user.name, password: "password1" } as const;
    const guesses = await Promise.allSettled(
      Array.from({ length: 20 }, () => s.auth.authenticate({ ...basic, otp: "000000" })),
    );
    expect(guesses.every((g) => g.status === "rejected")).toBe(true);
    expect((await twoFactor.findTwoFactor(s.ctx.db, user.id))?.failedAttempts).toBe(5);
    // A right code during the lock gets the same answer as a wrong one, on the API and the web step.
    await expect(s.auth.authenticate({ ...basic, otp: currentTotp(secret) })).rejects.toThrow(
      "invalid provided OTP",
    );
    expect(await s.twoFactor.checkPasscode(user, currentTotp(secret))).toBe(false);
    const [recovery] = await s.twoFactor.regenerateRecoveryCodes(user);
    expect(await s.twoFactor.useRecoveryCode(user, recovery!)).toBe(false);
    await twoFactor.resetTwoFactorAttempts(s.ctx.db, user.id);
    expect(await s.twoFactor.useRecoveryCode(user, recovery!)).toBe(true);
    expect(await s.twoFactor.checkPasscode(user, currentTotp(secret))).toBe(true);
    expect((await twoFactor.findTwoFactor(s.ctx.db, user.id))?.failedAttempts).toBe(0);
  });

  it("refuses prohibited accounts and those that must change their password with 403", async () => {
    const prohibited = await newUser();
    await users.updateUser(s.ctx.db, prohibited.id, { prohibitLogin: true });
    await expect(
      s.auth.authenticate({ kind: "basic", username: prohibited.name, password: "password1" }),
    ).rejects.toMatchObject({ kind: "permission_denied" });
    const mustChange = await newUser({ mustChangePassword: true });
    await expect(
      s.auth.authenticate({ kind: "basic", username: mustChange.name, password: "password1" }),
    ).rejects.toThrow(/^You must change your password/);
  });

  it("tries a dotted password as a password when the OAuth2 signing key cannot be opened", async () => {
    const opened = await openTestServices(dialect);
    try {
      const { ctx } = opened.services;
      // A key sealed under another SECRET_KEY: opening it throws.
      const foreign = sealSecret("another-secret-key", "{}");
      await oauth2Grants.insertSigningKey(ctx.db, ctx.settings.oauth2.jwtSigningAlgorithm, foreign);
      const name = uniqueName("dot");
      await opened.services.users.create({ username: name, email: `${name}@e.org`, password: "pass.word.1" });
      await expect(
        opened.services.auth.authenticate({ kind: "basic", username: name, password: "pass.word.1" }),
      ).resolves.toMatchObject({ method: "password" });
      await expect(
        opened.services.auth.authenticate({ kind: "basic", username: name, password: "wrong.pass.word" }),
      ).rejects.toMatchObject({ kind: "unauthorized" });
    } finally {
      await opened.database.close();
    }
  });

  it("refuses password login when basic authentication is disabled, but still takes tokens", async () => {
    const opened = await openTestServices(dialect, { service: { enableBasicAuthentication: false } });
    try {
      const u = await opened.services.users.create({
        username: uniqueName("nb"),
        email: `${uniqueName("nb")}@e.org`,
        password: "password1",
      });
      const { secret } = await opened.services.tokens.create(u, "t", ["all"]);
      await expect(
        opened.services.auth.authenticate({ kind: "basic", username: u.name, password: "password1" }),
      ).rejects.toMatchObject({ kind: "unauthorized" });
      await expect(
        opened.services.auth.authenticate({ kind: "basic", username: u.name, password: secret }),
      ).resolves.toMatchObject({ method: "token" });
    } finally {
      await opened.database.close();
    }
  });
});
