import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { openTestServices, useTestServices } from "../../test/support.js";
import { actorFor, viewerOf } from "../access/actor.js";
import type { Services } from "../services.js";

describe.each(DIALECTS)("users, e-mails and tokens on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const create = (username = uniqueName("u"), extra = {}) =>
    s.users.create({ username, email: `${username}@example.com`, password: "password1", ...extra });

  it("creates a user with its primary address, rejecting what Forgejo rejects with its messages", async () => {
    const name = uniqueName("Erin");
    const user = await create(name, { fullName: "Erin E." });
    expect(user).toMatchObject({ name, lowerName: name.toLowerCase(), fullName: "Erin E.", loginName: name });
    expect(await s.emails.list(user)).toMatchObject([{ email: `${name}@example.com`, isPrimary: true }]);
    await expect(create(name.toUpperCase())).rejects.toThrow(
      `user already exists [name: ${name.toUpperCase()}]`,
    );
    await expect(
      s.users.create({ username: uniqueName("x"), email: `${name}@EXAMPLE.com`, password: "password1" }),
    ).rejects.toThrow("e-mail already in use");
    await expect(create("admin")).rejects.toMatchObject({
      kind: "invalid_argument",
      message: "name is reserved [name: admin]",
    });
    await expect(create("bad name")).rejects.toMatchObject({ kind: "invalid_argument" });
    await expect(
      s.users.create({ username: uniqueName("y"), email: "not-an-email", password: "password1" }),
    ).rejects.toThrow("e-mail invalid");
    await expect(
      s.users.create({ username: uniqueName("z"), email: `${uniqueName("z")}@e.org`, password: "short" }),
    ).rejects.toMatchObject({
      kind: "bad_request",
    });
  });

  it("hides private users from others and limited users from anonymous viewers", async () => {
    const priv = await create(uniqueName("priv"), { visibility: "private" });
    const lim = await create(uniqueName("lim"), { visibility: "limited" });
    const other = await create();
    await expect(s.users.getVisible(priv.name, other)).rejects.toMatchObject({ kind: "not_found" });
    await expect(s.users.getVisible(priv.name, priv)).resolves.toMatchObject({ id: priv.id });
    await expect(s.users.getVisible(lim.name, null)).rejects.toMatchObject({ kind: "not_found" });
    await expect(s.users.getVisible(lim.name, other)).resolves.toMatchObject({ id: lim.id });
    const found = await s.users.search(null, { q: "lim-" }, { page: 1, limit: 50 });
    expect(found.items.map((u) => u.id)).not.toContain(lim.id);
    const foundSigned = await s.users.search(
      viewerOf(actorFor(other)),
      { q: lim.name },
      { page: 1, limit: 50 },
    );
    expect(foundSigned.items.map((u) => u.id)).toEqual([lim.id]);
    // A public-only token sees only public accounts, as anonymous callers do.
    const publicOnly = viewerOf({ user: other, scopes: null, publicOnly: true });
    expect((await s.users.search(publicOnly, { q: lim.name }, { page: 1, limit: 50 })).items).toEqual([]);
    expect((await s.users.search(publicOnly, { uid: lim.id }, { page: 1, limit: 50 })).items).toEqual([]);
  });

  it("never removes the last site admin and never deletes the acting admin", async () => {
    const opened = await openTestServices(dialect);
    try {
      const admin = await opened.services.users.create({
        username: "root1",
        email: "root1@e.org",
        password: "password1",
        isAdmin: true,
      });
      await expect(opened.services.users.adminEdit(admin, { admin: false })).rejects.toMatchObject({
        kind: "bad_request",
      });
      const second = await opened.services.users.create({
        username: "root2",
        email: "root2@e.org",
        password: "password1",
        isAdmin: true,
      });
      await expect(opened.services.users.adminEdit(admin, { admin: false })).resolves.toMatchObject({
        isAdmin: false,
      });
      await expect(opened.services.users.delete(second, second, { purge: false })).rejects.toThrow(
        "you cannot delete yourself",
      );
      await opened.services.users.delete(admin, second, { purge: false });
      await expect(opened.services.users.getByName("root1")).rejects.toMatchObject({ kind: "not_found" });
    } finally {
      await opened.database.close();
    }
  });

  it("changes the primary e-mail on admin edit and keeps the old one as secondary", async () => {
    const user = await create();
    const next = `${uniqueName("new")}@example.org`;
    const edited = await s.users.adminEdit(user, { email: next, location: "Porto" });
    expect(edited).toMatchObject({ email: next, location: "Porto" });
    const list = await s.emails.list(user);
    expect(list.map((e) => [e.email, e.isPrimary])).toEqual([
      [next, true],
      [user.email, false],
    ]);
  });

  it("adds and deletes secondary e-mails, refusing taken, invalid, unknown and primary ones", async () => {
    const user = await create();
    const a = `${uniqueName("a")}@example.com`;
    expect((await s.emails.add(user, [a])).map((e) => e.email)).toEqual([a]);
    await expect(s.emails.add(user, [a])).rejects.toThrow(`Email address has been used: ${a}`);
    await expect(s.emails.add(user, ["nope"])).rejects.toMatchObject({ kind: "invalid_argument" });
    await expect(s.emails.delete(user, [user.email])).rejects.toMatchObject({ kind: "bad_request" });
    await expect(s.emails.delete(user, ["missing@example.com"])).rejects.toMatchObject({ kind: "not_found" });
    await s.emails.delete(user, [a.toUpperCase()]);
    expect((await s.emails.list(user)).map((e) => e.email)).toEqual([user.email]);
  });

  it("creates tokens with normalized scopes, refuses duplicates and bad scopes, deletes by id or name", async () => {
    const user = await create();
    const made = await s.tokens.create(user, "ci", ["read:user", "write:user", "read:repository"]);
    expect(made.secret).toMatch(/^[0-9a-f]{40}$/);
    expect(made.token).toMatchObject({
      name: "ci",
      scope: "read:repository,write:user",
      tokenLastEight: made.secret.slice(-8),
    });
    expect(made.token.tokenHash).not.toContain(made.secret);
    await expect(s.tokens.create(user, "ci", ["all"])).rejects.toThrow(
      "access token name has been used already",
    );
    await expect(s.tokens.create(user, "bad", ["read:nothing"])).rejects.toThrow(
      "invalid access token scope provided: invalid access token scope: read:nothing",
    );
    await expect(s.tokens.create(user, "none", [])).rejects.toThrow("access token must have a scope");
    const second = await s.tokens.create(user, "12345", ["all"]);
    await s.tokens.delete(user, String(second.token.id));
    await s.tokens.delete(user, "ci");
    expect((await s.tokens.list(user, { page: 1, limit: 10 })).total).toBe(0);
    await expect(s.tokens.delete(user, "ci")).rejects.toMatchObject({ kind: "not_found" });
  });
});
