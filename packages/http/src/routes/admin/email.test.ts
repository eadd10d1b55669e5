import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("admin e-mail lists on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    user = await t.user({ name: "mailer-one" });
    await t.call("POST", "/user/emails", {
      token: user.token,
      body: { emails: ["second-Address@example.org"] },
    });
    // Organizations' addresses are no e-mail addresses of users.
    await t.call("POST", "/orgs", {
      token: user.token,
      body: { username: "mailer-org", email: "org@example.org" },
    });
  });
  afterAll(() => t?.close());

  it("lists every user's addresses in Forgejo's Email shape, paged", async () => {
    const res = await t.call("GET", "/admin/emails?limit=50", { token: admin.token });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("X-Total-Count"))).toBe(3);
    expect(res.json).toContainEqual({
      email: "mailer-one@example.com",
      verified: true,
      primary: true,
      user_id: user.id,
      username: "mailer-one",
    });
    expect(res.json.map((e: { email: string }) => e.email)).toContain("second-Address@example.org");
    const page = await t.call("GET", "/admin/emails?limit=1&page=2", { token: admin.token });
    expect(page.json).toHaveLength(1);
    expect(page.headers.get("Link")).toContain('rel="prev"');
  });

  it("searches addresses and owners' names, case-insensitively", async () => {
    const byAddress = await t.call("GET", "/admin/emails/search?q=SECOND-address", { token: admin.token });
    expect(byAddress.json.map((e: { email: string }) => e.email)).toEqual(["second-Address@example.org"]);
    const byOwner = await t.call("GET", "/admin/emails/search?q=mailer-one", { token: admin.token });
    expect(byOwner.json).toHaveLength(2);
    expect(Number(byOwner.headers.get("X-Total-Count"))).toBe(2);
    const literal = await t.call("GET", "/admin/emails/search?q=%25", { token: admin.token });
    expect(literal.json).toEqual([]);
    expect((await t.call("GET", "/admin/emails", { token: user.token })).status).toBe(403);
    expect((await t.call("GET", "/admin/emails/search?q=a")).status).toBe(401);
  });
});
