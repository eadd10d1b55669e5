import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("repository flags on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  beforeAll(async () => {
    t = await openTestApp(dialect, { repository: { enableFlags: true } });
    admin = await t.user({ admin: true });
    owner = await t.user();
    repo = await createRepo(t, owner, "tools");
    secret = await createRepo(t, owner, "vault", { private: true });
  });
  afterAll(() => t?.close());

  it("adds, checks, lists, replaces and removes flags for a site administrator", async () => {
    const as = { token: admin.token };
    expect((await t.call("GET", `${repo.path}/flags`, as)).json).toEqual([]);
    expect((await t.call("PUT", `${repo.path}/flags/featured`, as)).status).toBe(204);
    expect((await t.call("PUT", `${repo.path}/flags/featured`, as)).status).toBe(204);
    expect((await t.call("PUT", `${repo.path}/flags/archived-by-staff`, as)).status).toBe(204);
    expect((await t.call("GET", `${repo.path}/flags/featured`, as)).status).toBe(204);
    expect((await t.call("GET", `${repo.path}/flags/absent`, as)).status).toBe(404);
    const list = await t.call("GET", `${repo.path}/flags`, as);
    expect(list.json).toEqual(["archived-by-staff", "featured"]);
    expect(list.headers.get("x-total-count")).toBe("2");

    const replaced = await t.call("PUT", `${repo.path}/flags`, { ...as, body: { flags: ["a", "b", "a"] } });
    expect(replaced.status).toBe(204);
    expect((await t.call("GET", `${repo.path}/flags`, as)).json).toEqual(["a", "b"]);
    expect((await t.call("DELETE", `${repo.path}/flags/a`, as)).status).toBe(204);
    expect((await t.call("DELETE", `${repo.path}/flags/a`, as)).status).toBe(204);
    expect((await t.call("GET", `${repo.path}/flags`, as)).json).toEqual(["b"]);
    expect((await t.call("DELETE", `${repo.path}/flags`, as)).status).toBe(204);
    expect((await t.call("GET", `${repo.path}/flags`, as)).json).toEqual([]);
    // Flags of one repository are its own.
    expect((await t.call("PUT", `${secret.path}/flags/x`, as)).status).toBe(204);
    expect((await t.call("GET", `${repo.path}/flags/x`, as)).status).toBe(404);
  });

  it("refuses everyone but site administrators, hiding private repositories", async () => {
    expect((await t.call("GET", `${repo.path}/flags`, { token: owner.token })).status).toBe(403);
    expect((await t.call("PUT", `${repo.path}/flags/x`, { token: owner.token })).status).toBe(403);
    expect((await t.call("GET", `${repo.path}/flags`)).status).toBe(401);
    const outsider = await t.user();
    expect([403, 404]).toContain(
      (await t.call("GET", `${secret.path}/flags`, { token: outsider.token })).status,
    );
  });

  it("bounds the names and their number with a message", async () => {
    const as = { token: admin.token };
    const long = await t.call("PUT", `${repo.path}/flags`, { ...as, body: { flags: ["x".repeat(101)] } });
    expect(long.status).toBe(422);
    const many = await t.call("PUT", `${repo.path}/flags`, {
      ...as,
      body: { flags: Array.from({ length: 101 }, (_, i) => `f${i}`) },
    });
    expect(many.status).toBe(422);
    // A path no flag can have is not found, as Kiln answers for every malformed path parameter.
    expect((await t.call("PUT", `${repo.path}/flags/${"y".repeat(101)}`, as)).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/flags`, as)).json).toEqual([]);
  });
});

describe("repository flags when disabled", () => {
  it("are not there, as Forgejo without ENABLE_FLAGS", async () => {
    const t = await openTestApp("pglite");
    try {
      const admin = await t.user({ admin: true });
      const repo = await createRepo(t, admin, "tools");
      expect((await t.call("GET", `${repo.path}/flags`, { token: admin.token })).status).toBe(404);
      expect((await t.call("PUT", `${repo.path}/flags/x`, { token: admin.token })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
