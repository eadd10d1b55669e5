import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("unadopted repositories on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  const author = { name: "Someone", email: "someone@example.com" };
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    user = await t.user({ name: "holder" });
    await t.call("POST", "/user/repos", { token: user.token, body: { name: "adopted-already" } });
    const store = t.services.repositories.store;
    // Bare repositories on disk with no row, as a restored backup or another instance leaves them.
    await store.create("holder", "found", { defaultBranch: "trunk", autoInit: { author } });
    await store.create("holder", "stray");
    await store.create("nobody-owns-this", "orphan");
  });
  afterAll(() => t?.close());

  it("lists directories without a row, for existing owners, filtered by Forgejo's pattern and paged", async () => {
    const res = await t.call("GET", "/admin/unadopted", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(["holder/found", "holder/stray"]);
    expect(res.headers.get("X-Total-Count")).toBe("2");
    const page = await t.call("GET", "/admin/unadopted?limit=1&page=2", { token: admin.token });
    expect(page.json).toEqual(["holder/stray"]);
    expect((await t.call("GET", "/admin/unadopted?pattern=holder/f*", { token: admin.token })).json).toEqual([
      "holder/found",
    ]);
    expect((await t.call("GET", "/admin/unadopted?pattern=hol*", { token: admin.token })).json).toHaveLength(
      2,
    );
    expect((await t.call("GET", "/admin/unadopted?pattern=zzz*", { token: admin.token })).json).toEqual([]);
    expect((await t.call("GET", "/admin/unadopted", { token: user.token })).status).toBe(403);
  });

  it("adopts a directory as a private repository with its branch and size", async () => {
    expect((await t.call("POST", "/admin/unadopted/holder/found", { token: user.token })).status).toBe(403);
    expect((await t.call("POST", "/admin/unadopted/holder/found", { token: admin.token })).status).toBe(204);
    const repo = await t.call("GET", "/repos/holder/found", { token: user.token });
    expect(repo.status).toBe(200);
    expect(repo.json).toMatchObject({ private: true, empty: false, default_branch: "trunk" });
    // Its bytes on disk count against the owner's quota (private repositories).
    const quota = await t.call("GET", "/user/quota", { token: user.token });
    expect(quota.json.used.size.repos.private).toBeGreaterThan(0);
    expect((await t.call("GET", "/repos/holder/found")).status).toBe(404);
    const readme = await t.call("GET", "/repos/holder/found/contents/README.md", { token: user.token });
    expect(readme.status).toBe(200);
    expect((await t.call("GET", "/admin/unadopted", { token: admin.token })).json).toEqual(["holder/stray"]);
    // Adopted, a row exists: neither adopted nor deleted again through these routes.
    expect((await t.call("POST", "/admin/unadopted/holder/found", { token: admin.token })).status).toBe(404);
    expect((await t.call("DELETE", "/admin/unadopted/holder/found", { token: admin.token })).status).toBe(
      404,
    );
    expect(
      (await t.call("POST", "/admin/unadopted/holder/adopted-already", { token: admin.token })).status,
    ).toBe(404);
    expect(
      (await t.call("POST", "/admin/unadopted/nobody-owns-this/orphan", { token: admin.token })).status,
    ).toBe(404);
    expect((await t.call("POST", "/admin/unadopted/holder/missing", { token: admin.token })).status).toBe(
      404,
    );
  });

  it("deletes an unadopted directory", async () => {
    expect((await t.call("DELETE", "/admin/unadopted/holder/stray", { token: user.token })).status).toBe(403);
    expect((await t.call("DELETE", "/admin/unadopted/holder/stray", { token: admin.token })).status).toBe(
      204,
    );
    expect(await t.services.repositories.store.exists("holder", "stray")).toBe(false);
    expect((await t.call("GET", "/admin/unadopted", { token: admin.token })).json).toEqual([]);
    expect((await t.call("DELETE", "/admin/unadopted/holder/stray", { token: admin.token })).status).toBe(
      404,
    );
    expect(await t.services.repositories.store.exists("holder", "adopted-already")).toBe(true);
  });
});
