import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { twoFactor, users } from "./index.js";

describe.each(DIALECTS)("two-factor attempt counter on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  async function enrolled(): Promise<number> {
    const name = uniqueName("tf");
    const userId = (await users.insertUser(t.db, { name, lowerName: name })).id;
    await twoFactor.upsertTwoFactor(t.db, userId, "sealed");
    return userId;
  }

  it("lets at most five of twenty concurrent attempts through, then refuses until reset", async () => {
    const userId = await enrolled();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => twoFactor.beginTwoFactorAttempt(t.db, userId, 5, 15)),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
    const row = await twoFactor.findTwoFactor(t.db, userId);
    expect(row?.failedAttempts).toBe(5);
    expect(row?.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(await twoFactor.beginTwoFactorAttempt(t.db, userId, 5, 15)).toBe(false);
    await twoFactor.resetTwoFactorAttempts(t.db, userId);
    expect(await twoFactor.beginTwoFactorAttempt(t.db, userId, 5, 15)).toBe(true);
  });

  it("starts a new count once the lock has expired, and refuses users who are not enrolled", async () => {
    const userId = await enrolled();
    for (let i = 0; i < 5; i++) await twoFactor.beginTwoFactorAttempt(t.db, userId, 5, 0);
    expect(await twoFactor.beginTwoFactorAttempt(t.db, userId, 5, 15)).toBe(true);
    expect((await twoFactor.findTwoFactor(t.db, userId))?.failedAttempts).toBe(1);
    expect(await twoFactor.beginTwoFactorAttempt(t.db, 987654321, 5, 15)).toBe(false);
  });
});
