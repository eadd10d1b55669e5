import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../test/support.js";

/** The repository and account names a list page shows, in order. */
const repoNames = (html: string) =>
  [...html.matchAll(/<strong>([^<]+)<\/strong><\/a>(?:<span class="badge">)?/g)].map((m) => m[1]);

describe.each(DIALECTS)("the explore pages on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    const owner = await t.user({ name: "explorer" });
    for (let i = 0; i < 23; i++) {
      await t.services.repositories.create(owner, owner, { name: `pub-${String(i).padStart(2, "0")}` });
    }
    await t.services.repositories.create(owner, owner, { name: "needle-private", private: true });
    await t.services.repositories.create(owner, owner, {
      name: "haystack",
      description: "has a needle in its description",
    });
    await t.user({ name: "shy-person", visibility: "private" });
    await t.user({ name: "known-person" });
    await t.services.orgs.create(owner, "club-open", { visibility: "public" });
    await t.services.orgs.create(owner, "club-hidden", { visibility: "private" });
  });
  afterAll(() => t?.close());

  it("pages through the repositories anyone may see, 20 a page, alphabetically when asked", async () => {
    const b = t.browser();
    const first = await b.get("/explore/repos?sort=alphabetically");
    expect(first.status).toBe(200);
    const names = repoNames(first.html);
    expect(names).toHaveLength(20);
    expect(names.slice(0, 2)).toEqual(["haystack", "pub-00"]);
    expect(first.html).toContain('href="/explore/repos?sort=alphabetically&amp;page=2"');
    const second = await b.get("/explore/repos?sort=alphabetically&page=2");
    expect(repoNames(second.html)).toEqual(["pub-19", "pub-20", "pub-21", "pub-22"]);
    expect(second.html).not.toContain("needle-private");
    expect((await b.get("/explore/repos?page=99999999999999999999")).status).toBe(200);
  });

  it("searches names and descriptions, and shows the owner's private repositories only to the owner", async () => {
    const anonymous = await t.browser().get("/explore/repos?q=needle");
    expect(repoNames(anonymous.html)).toEqual(["haystack"]);
    const owner = await t.signedIn((await t.services.users.findByName("explorer"))!);
    const mine = await owner.get("/explore/repos?q=needle&sort=alphabetically");
    expect(repoNames(mine.html)).toEqual(["haystack", "needle-private"]);
    expect(mine.html).toContain('value="needle"');
  });

  it("answers a NUL byte in a search with 400 and a message, never a server error", async () => {
    for (const path of ["/explore/repos?q=%00", "/explore/users?q=a%00b", "/explore/organizations?q=%00"]) {
      const res = await t.browser().get(path);
      expect(res.status).toBe(400);
      expect(res.html).toContain("NUL byte");
    }
    // The database connection carries on.
    expect(repoNames((await t.browser().get("/explore/repos?q=needle")).html)).toEqual(["haystack"]);
  });

  it("lists users and organizations the visitor may see, each in its own tab", async () => {
    const b = t.browser();
    const users = await b.get("/explore/users?q=person");
    expect(users.html).toContain("known-person");
    expect(users.html).not.toContain("shy-person");
    expect(users.html).not.toContain("club-open");
    const orgs = await b.get("/explore/organizations");
    expect(orgs.html).toContain("club-open");
    expect(orgs.html).not.toContain("club-hidden");
    expect(orgs.html).not.toContain("known-person");
    const admin = await t.signedIn(await t.user({ admin: true }));
    expect((await admin.get("/explore/organizations?q=club")).html).toContain("club-hidden");
    expect((await b.get("/explore")).location).toBe("/explore/repos");
  });
});
