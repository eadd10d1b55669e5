import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../errors.js";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { accessTokens, twoFactor, users } from "./index.js";

describe.each(DIALECTS)("access tokens and two-factor on %s", (dialect) => {
  let t: TestDatabase;
  let userId: number;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("owner");
    userId = (await users.insertUser(t.db, { name, lowerName: name })).id;
  });
  afterAll(() => t?.close());

  it("stores tokens by hash, finds them by hash, id and name, and pages them", async () => {
    const made = [];
    for (const n of ["one", "two", "three"]) {
      made.push(
        await accessTokens.insertAccessToken(t.db, {
          userId,
          name: n,
          tokenHash: uniqueName(n),
          tokenLastEight: "12345678",
          scope: "read:user",
        }),
      );
    }
    const [first] = made;
    expect(await accessTokens.findTokenOwnerByHash(t.db, first!.tokenHash)).toEqual({
      tokenId: first!.id,
      scope: "read:user",
      user: await users.findUserById(t.db, userId),
    });
    expect(await accessTokens.findTokenOwnerByHash(t.db, "no-such-hash")).toBeUndefined();
    expect(await accessTokens.findAccessToken(t.db, userId, { id: first!.id })).toEqual(first);
    expect(await accessTokens.findAccessToken(t.db, userId, { name: "two" })).toEqual(made[1]);
    const page = await accessTokens.listAccessTokens(t.db, userId, { page: 2, limit: 2 });
    expect(page.total).toBe(3);
    expect(page.items.map((x) => x.name)).toEqual(["three"]);
    expect(await accessTokens.deleteAccessToken(t.db, userId, first!.id)).toBe(true);
    expect(await accessTokens.deleteAccessToken(t.db, userId, first!.id)).toBe(false);
  });

  it("refuses a duplicate name for the same owner only", async () => {
    const values = { userId, name: "dup", tokenHash: uniqueName("h"), tokenLastEight: "x", scope: "all" };
    await accessTokens.insertAccessToken(t.db, values);
    const err = await accessTokens
      .insertAccessToken(t.db, { ...values, tokenHash: uniqueName("h") })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err, "access_token_user_name_key")).toBe(true);
    const otherName = uniqueName("other");
    const other = await users.insertUser(t.db, { name: otherName, lowerName: otherName });
    await expect(
      accessTokens.insertAccessToken(t.db, { ...values, userId: other.id, tokenHash: uniqueName("h") }),
    ).resolves.toMatchObject({ name: "dup" });
  });

  it("refuses a TOTP passcode that was just used", async () => {
    await twoFactor.upsertTwoFactor(t.db, userId, "encrypted-secret");
    expect(await twoFactor.markPasscodeUsed(t.db, userId, "123456")).toBe(true);
    expect(await twoFactor.markPasscodeUsed(t.db, userId, "123456")).toBe(false);
    expect(await twoFactor.markPasscodeUsed(t.db, userId, "654321")).toBe(true);
    expect((await twoFactor.findTwoFactor(t.db, userId))?.secret).toBe("encrypted-secret");
  });
});
