import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { oauth2Applications, oauth2Grants, recoveryCodes, twoFactor, users, webSessions } from "./index.js";

describe.each(DIALECTS)("OAuth2, web sessions and recovery codes on %s", (dialect) => {
  let t: TestDatabase;
  let userId: number;
  let otherId: number;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("oauth");
    userId = (await users.insertUser(t.db, { name, lowerName: name })).id;
    const other = uniqueName("other");
    otherId = (await users.insertUser(t.db, { name: other, lowerName: other })).id;
  });
  afterAll(() => t?.close());

  const values = {
    name: "app",
    clientSecretHash: "h",
    confidentialClient: true,
    redirectUris: ["https://a/cb"],
  };

  it("keeps applications per owner, pages them, and deleting one takes its grants and codes", async () => {
    const app = await oauth2Applications.insertApplication(t.db, userId, uniqueName("cid"), values);
    expect(app).toMatchObject({
      uid: userId,
      name: "app",
      redirectUris: ["https://a/cb"],
      confidentialClient: true,
    });
    expect(await oauth2Applications.findApplicationOf(t.db, otherId, app.id)).toBeUndefined();
    expect(await oauth2Applications.findApplicationByClientId(t.db, app.clientId)).toEqual(app);
    expect(await oauth2Applications.updateApplication(t.db, otherId, app.id, values)).toBeUndefined();
    const updated = await oauth2Applications.updateApplication(t.db, userId, app.id, {
      ...values,
      redirectUris: ["x:/y", "https://b/cb"],
    });
    expect(updated?.redirectUris).toEqual(["x:/y", "https://b/cb"]);
    const page = await oauth2Applications.listApplications(t.db, userId, { page: 1, limit: 10 });
    expect(page.total).toBeGreaterThanOrEqual(1);

    const grant = await oauth2Grants.insertGrant(t.db, app.id, otherId, "openid");
    expect(grant).toMatchObject({ counter: 1, scope: "openid", nonce: "" });
    expect(await oauth2Grants.insertGrant(t.db, app.id, otherId, "ignored")).toEqual(grant);
    await oauth2Grants.insertCode(t.db, {
      grantId: grant.id,
      codeHash: uniqueName("code"),
      codeChallenge: "",
      codeChallengeMethod: "",
      redirectUri: "https://a/cb",
      validUntil: new Date(Date.now() + 60_000),
    });
    expect(await oauth2Applications.deleteApplication(t.db, otherId, app.id)).toBeUndefined();
    expect(await oauth2Applications.deleteApplication(t.db, userId, app.id)).toEqual([grant.id]);
    expect(await oauth2Grants.findGrantById(t.db, grant.id)).toBeUndefined();
  });

  it("spends a code once and advances a grant's counter only from the value given", async () => {
    const app = await oauth2Applications.insertApplication(t.db, userId, uniqueName("cid"), values);
    const grant = await oauth2Grants.insertGrant(t.db, app.id, userId, "");
    const codeHash = uniqueName("code");
    await oauth2Grants.insertCode(t.db, {
      grantId: grant.id,
      codeHash,
      codeChallenge: "abc",
      codeChallengeMethod: "plain",
      redirectUri: "https://a/cb",
      validUntil: new Date(Date.now() + 60_000),
    });
    const code = await oauth2Grants.findCode(t.db, codeHash);
    expect(code).toMatchObject({ grantId: grant.id, codeChallenge: "abc", codeChallengeMethod: "plain" });
    expect(await oauth2Grants.deleteCode(t.db, code!.id)).toBe(true);
    expect(await oauth2Grants.deleteCode(t.db, code!.id)).toBe(false);
    const stale = uniqueName("stale");
    await oauth2Grants.insertCode(t.db, {
      grantId: grant.id,
      codeHash: stale,
      codeChallenge: "",
      codeChallengeMethod: "",
      redirectUri: "https://a/cb",
      validUntil: new Date(Date.now() - 1000),
    });
    expect(await oauth2Grants.deleteExpiredCodes(t.db)).toBeGreaterThanOrEqual(1);
    expect(await oauth2Grants.findCode(t.db, stale)).toBeUndefined();

    expect(await oauth2Grants.increaseCounter(t.db, grant.id, 1)).toBe(2);
    expect(await oauth2Grants.increaseCounter(t.db, grant.id, 1)).toBeUndefined();
    expect(await oauth2Grants.increaseCounter(t.db, grant.id)).toBe(3);
    await oauth2Grants.setNonce(t.db, grant.id, "n1");
    const owner = await oauth2Grants.findGrantOwner(t.db, grant.id);
    expect(owner?.grant).toEqual({ ...grant, counter: 3, nonce: "n1" });
    expect(owner?.user.id).toBe(userId);
  });

  it("stores one signing key per algorithm; the first one stays", async () => {
    const alg = uniqueName("RS");
    expect(await oauth2Grants.insertSigningKey(t.db, alg, "first")).toBe("first");
    expect(await oauth2Grants.insertSigningKey(t.db, alg, "second")).toBe("first");
    expect(await oauth2Grants.findSigningKey(t.db, alg)).toBe("first");
  });

  it("finds sessions until they expire, and sweeps expired ones", async () => {
    const live = uniqueName("s");
    const dead = uniqueName("s");
    await webSessions.saveSession(t.db, {
      id: live,
      userId,
      pendingUserId: null,
      data: "{}",
      expiresAt: new Date(Date.now() + 60_000),
    });
    await webSessions.saveSession(t.db, {
      id: dead,
      userId,
      pendingUserId: null,
      data: "{}",
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(await webSessions.findSession(t.db, live)).toMatchObject({ userId, data: "{}" });
    expect(await webSessions.findSession(t.db, dead)).toBeUndefined();
    expect(await webSessions.deleteExpiredSessions(t.db)).toBeGreaterThanOrEqual(1);
    await webSessions.deleteSession(t.db, live);
    expect(await webSessions.findSession(t.db, live)).toBeUndefined();
  });

  it("spends each recovery code once; disabling two-factor removes them", async () => {
    await twoFactor.upsertTwoFactor(t.db, otherId, "sealed");
    await recoveryCodes.replaceRecoveryCodes(t.db, otherId, ["a", "b"]);
    expect(await recoveryCodes.countUnusedRecoveryCodes(t.db, otherId)).toBe(2);
    expect(await recoveryCodes.useRecoveryCode(t.db, otherId, "a")).toBe(true);
    expect(await recoveryCodes.useRecoveryCode(t.db, otherId, "a")).toBe(false);
    expect(await recoveryCodes.useRecoveryCode(t.db, userId, "b")).toBe(false);
    expect(await recoveryCodes.countUnusedRecoveryCodes(t.db, otherId)).toBe(1);
    expect(await twoFactor.deleteTwoFactor(t.db, otherId)).toBe(true);
    expect(await recoveryCodes.countUnusedRecoveryCodes(t.db, otherId)).toBe(0);
    expect(await twoFactor.deleteTwoFactor(t.db, otherId)).toBe(false);
  });
});
