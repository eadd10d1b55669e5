import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../errors.js";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { accessTokens, emails, users } from "./index.js";

describe.each(DIALECTS)("users on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  it("inserts an account with defaults and finds it by name regardless of case", async () => {
    const name = uniqueName("Alice");
    const created = await users.insertUser(t.db, {
      name,
      lowerName: name.toLowerCase(),
      email: `${name}@example.com`,
    });
    expect(typeof created.id).toBe("number");
    expect(created).toMatchObject({
      type: "individual",
      visibility: "public",
      isAdmin: false,
      maxRepoCreation: -1,
    });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(await users.findUserByName(t.db, name.toUpperCase())).toEqual(created);
    expect(await users.findUserById(t.db, created.id)).toEqual(created);
    expect(await users.findUserByName(t.db, "nobody-by-this-name")).toBeUndefined();
  });

  it("finds the accounts of several addresses at once, primary or not, whatever their case", async () => {
    const name = uniqueName("carol");
    const carol = await users.insertUser(t.db, { name, lowerName: name, email: `${name}@example.com` });
    await emails.insertEmail(t.db, { userId: carol.id, email: `${name}@example.com`, isPrimary: true });
    await emails.insertEmail(t.db, { userId: carol.id, email: `Work.${name}@Example.org`, isPrimary: false });
    const found = await users.findUsersByEmails(t.db, [
      `${name.toUpperCase()}@EXAMPLE.COM`,
      `work.${name}@example.org`,
      "nobody@example.com",
      "nul\0@example.com",
      "",
    ]);
    expect([...found.keys()].sort()).toEqual([`${name}@example.com`, `work.${name}@example.org`].sort());
    expect(found.get(`work.${name}@example.org`)).toEqual(carol);
    expect((await users.findUsersByEmails(t.db, [])).size).toBe(0);
  });

  it("refuses a second account with the same name in another case, as a unique violation", async () => {
    const name = uniqueName("bob");
    await users.insertUser(t.db, { name, lowerName: name });
    const err = await users
      .insertUser(t.db, { name: name.toUpperCase(), lowerName: name })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(new Error("other"))).toBe(false);
  });

  it("lists with filters, a stable id order, totals and pages", async () => {
    const tag = uniqueName("list");
    const made = [];
    for (let i = 0; i < 5; i++) {
      const name = `${tag}-${i}`;
      made.push(
        await users.insertUser(t.db, { name, lowerName: name, fullName: i === 3 ? "Special Person" : "" }),
      );
    }
    const page1 = await users.listUsers(t.db, { keyword: tag }, { page: 1, limit: 2 });
    const page3 = await users.listUsers(t.db, { keyword: tag }, { page: 3, limit: 2 });
    expect(page1.total).toBe(5);
    expect(page1.items.map((u) => u.name)).toEqual([`${tag}-0`, `${tag}-1`]);
    expect(page3.items.map((u) => u.name)).toEqual([`${tag}-4`]);
    const special = await users.listUsers(t.db, { keyword: "special person" }, { page: 1, limit: 10 });
    expect(special.items.map((u) => u.id)).toContain(made[3]?.id);
    const literal = await users.listUsers(t.db, { keyword: "%" }, { page: 1, limit: 10 });
    expect(literal.total).toBe(0);
  });

  it("updates selected columns and bumps updated_at", async () => {
    const name = uniqueName("carol");
    const u = await users.insertUser(t.db, { name, lowerName: name });
    const changed = await users.updateUser(t.db, u.id, { isAdmin: true, location: "Lisbon" });
    expect(changed).toMatchObject({ isAdmin: true, location: "Lisbon" });
    expect(changed?.updatedAt.getTime()).toBeGreaterThanOrEqual(u.updatedAt.getTime());
    expect(await users.updateUser(t.db, 987654321, { isAdmin: true })).toBeUndefined();
  });

  it("deletes an account together with its e-mails and tokens", async () => {
    const name = uniqueName("dave");
    const u = await users.insertUser(t.db, { name, lowerName: name });
    await emails.insertEmail(t.db, { userId: u.id, email: `${name}@example.com`, isPrimary: true });
    await accessTokens.insertAccessToken(t.db, {
      userId: u.id,
      name: "t",
      tokenHash: uniqueName("hash"),
      tokenLastEight: "abcdefgh",
      scope: "all",
    });
    expect(await users.deleteUser(t.db, u.id)).toBe(true);
    expect(await emails.findEmail(t.db, `${name}@example.com`)).toBeUndefined();
    expect(await accessTokens.findAccessToken(t.db, u.id, { name: "t" })).toBeUndefined();
    expect(await users.deleteUser(t.db, u.id)).toBe(false);
  });
});
