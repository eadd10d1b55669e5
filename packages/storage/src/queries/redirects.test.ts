import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { blocks, redirects, repoMoves, repositories, users } from "./index.js";

describe.each(DIALECTS)("blocks, redirects and the move journal on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  const user = (name = uniqueName("u")) =>
    users.insertUser(t.db, { name, lowerName: name.toLowerCase(), email: `${name}@example.com` });

  it("keeps an old user name leading to the account until an account takes the name", async () => {
    const u = await user();
    const old = u.name;
    await redirects.addUserRedirect(t.db, u.id, old, `${old}-new`);
    expect(await redirects.lookupUserRedirect(t.db, old.toUpperCase())).toBe(u.id);
    // Renaming back removes the redirect of the name taken back.
    await redirects.addUserRedirect(t.db, u.id, `${old}-new`, old);
    expect(await redirects.lookupUserRedirect(t.db, old)).toBeUndefined();
    expect(await redirects.lookupUserRedirect(t.db, `${old}-new`)).toBe(u.id);
    await user(`${old}-new`);
    expect(await redirects.lookupUserRedirect(t.db, `${old}-new`)).toBeUndefined();
  });

  it("keeps an old repository name under its owner until a repository takes it", async () => {
    const u = await user();
    const repo = await repositories.insertRepository(t.db, {
      ownerId: u.id,
      ownerName: u.name,
      name: "now",
      lowerName: "now",
    });
    await redirects.addRepoRedirect(t.db, u.id, repo.id, "Before", "now");
    expect(await redirects.lookupRepoRedirect(t.db, u.id, "before")).toBe(repo.id);
    await repositories.insertRepository(t.db, {
      ownerId: u.id,
      ownerName: u.name,
      name: "before",
      lowerName: "before",
    });
    expect(await redirects.lookupRepoRedirect(t.db, u.id, "before")).toBeUndefined();
  });

  it("records a block once, lists it and answers whether any of several blocks a user", async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    expect(await blocks.insertBlock(t.db, a.id, b.id, new Date())).toBe(true);
    expect(await blocks.insertBlock(t.db, a.id, b.id, new Date())).toBe(false);
    expect(await blocks.isBlockedByAny(t.db, [c.id, a.id], b.id)).toBe(true);
    expect(await blocks.isBlockedByAny(t.db, [c.id], b.id)).toBe(false);
    expect(await blocks.isBlockedByAny(t.db, [b.id], a.id)).toBe(false);
    const list = await blocks.listBlocked(t.db, a.id, { page: 1, limit: 10 });
    expect(list).toMatchObject({ total: 1, items: [{ blockId: b.id }] });
    expect(await blocks.deleteBlock(t.db, a.id, b.id)).toBe(true);
    expect(await blocks.deleteBlock(t.db, a.id, b.id)).toBe(false);
  });

  it("hands out journalled moves oldest first", async () => {
    await repoMoves.journalMove(t.db, { fromOwner: "a", fromName: "x", toOwner: "b", toName: "x" });
    await repoMoves.journalMove(t.db, { fromOwner: "b", fromName: "x", toOwner: "c", toName: "x" });
    const first = await repoMoves.firstMove(t.db);
    expect(first).toMatchObject({ fromOwner: "a", toOwner: "b" });
    await repoMoves.deleteMove(t.db, first?.id ?? 0);
    expect(await repoMoves.firstMove(t.db)).toMatchObject({ fromOwner: "b", toOwner: "c" });
  });
});
