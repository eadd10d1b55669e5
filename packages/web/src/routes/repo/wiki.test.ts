import { actorFor } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

const text = (s: string) => ({ content: new TextEncoder().encode(s) });

describe.each(DIALECTS)("the wiki pages on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    const owner = await t.user({ name: "wiki-owner" });
    const s = t.services;
    for (const [name, priv] of [
      ["docs", false],
      ["bare", false],
      ["quiet", true],
    ] as const)
      await s.repositories.create(owner, owner, { name, autoInit: true, private: priv });
    const docs = (await s.access.repo(actorFor(owner), "wiki-owner", "docs")).repo;
    await s.wikis.create(docs, owner, "Home", text("Hello **wiki**. <script>alert(1)</script>"));
    await s.wikis.create(docs, owner, "Install Guide", text("Run it."));
    await s.wikis.create(docs, owner, "_Sidebar", text("Side links"));
    const quiet = (await s.access.repo(actorFor(owner), "wiki-owner", "quiet")).repo;
    await s.wikis.create(quiet, owner, "Home", text("hidden"));
  });
  afterAll(() => t?.close());

  it("is 404 to a team member who may read the code but not the wiki or the releases, as the API", async () => {
    const s = t.services;
    const owner = (await s.users.findByName("wiki-owner"))!;
    const org = await s.orgs.create(owner, "wiki-club", { visibility: "public" });
    await s.repositories.create(owner, org, { name: "club-docs", autoInit: true, private: true });
    const clubDocs = (await s.access.repo(actorFor(owner), "wiki-club", "club-docs")).repo;
    await s.wikis.create(clubDocs, owner, "Home", text("club wiki"));
    const team = await s.teams.create(org, { name: "coders", permission: "read", units: ["repo.code"] });
    const member = await t.user();
    await s.teams.addMember(team, member, owner);
    await s.teams.addRepo(team, clubDocs, owner);
    const b = await t.signedIn(member);
    expect((await b.get("/wiki-club/club-docs")).status).toBe(200);
    expect((await b.get("/wiki-club/club-docs/wiki")).status).toBe(404);
    expect((await b.get("/wiki-club/club-docs/wiki/Home")).status).toBe(404);
    expect((await b.get("/wiki-club/club-docs/releases")).status).toBe(404);
  });

  it("renders the Home page, sanitized, with its sidebar and last edit", async () => {
    const page = await t.browser().get("/wiki-owner/docs/wiki");
    expect(page.status).toBe(200);
    expect(page.html).toContain("<strong>wiki</strong>");
    expect(page.html).not.toContain("<script>alert(1)");
    expect(page.html).toContain("Side links");
    expect(page.html).toContain("wiki-owner edited this page");
    expect(page.html).toContain('href="/wiki-owner/docs/wiki/Home?action=_revision"');
    const guide = await t.browser().get("/wiki-owner/docs/wiki/Install-Guide");
    expect(guide.status).toBe(200);
    expect(guide.html).toContain("Run it.");
    expect((await t.browser().get("/wiki-owner/docs/wiki/Nope")).status).toBe(404);
  });

  it("lists the pages and a page's revisions", async () => {
    const pages = await t.browser().get("/wiki-owner/docs/wiki/?action=_pages");
    expect(pages.status).toBe(200);
    expect(pages.html).toContain('href="/wiki-owner/docs/wiki/Install-Guide"');
    expect(pages.html).toContain(">Install Guide</a>");
    const history = await t.browser().get("/wiki-owner/docs/wiki/Home?action=_revision");
    expect(history.status).toBe(200);
    expect(history.html).toContain("History of Home");
  });

  it("welcomes visitors of an empty wiki", async () => {
    const page = await t.browser().get("/wiki-owner/bare/wiki/");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Welcome to the wiki");
  });

  it("is 404 for a private repository's wiki to anonymous visitors and outsiders", async () => {
    const outsider = await t.signedIn(await t.user());
    for (const b of [t.browser(), outsider]) {
      expect((await b.get("/wiki-owner/quiet/wiki")).status).toBe(404);
      expect((await b.get("/wiki-owner/quiet/wiki/Home")).status).toBe(404);
      expect((await b.get("/wiki-owner/quiet/wiki/?action=_pages")).status).toBe(404);
    }
  });
});
