import { actorFor } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

/** Bytes as an upload's body. */
async function* bytes(text: string) {
  yield new TextEncoder().encode(text);
}

describe.each(DIALECTS)("the releases pages on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    const owner = await t.user({ name: "rel-owner" });
    const s = t.services;
    await s.repositories.create(owner, owner, { name: "tool", autoInit: true });
    await s.repositories.create(owner, owner, { name: "hush", autoInit: true, private: true });
    const tool = await s.access.repo(actorFor(owner), "rel-owner", "tool");
    const v1 = await s.releases.create(tool, owner, {
      tagName: "v1.0",
      title: "First cut",
      note: 'Fixes **bugs**.\n\n<script>alert(1)</script><a href="javascript:alert(2)">x</a>',
    });
    await s.attachments.upload(
      tool,
      { releaseId: v1.id },
      { name: "tool.tar.gz", body: bytes("tool bytes") },
    );
    await s.releases.create(tool, owner, { tagName: "v2.0-rc", title: "Secret draft", draft: true });
    const v3 = await s.releases.create(tool, owner, { tagName: "v3.0", title: "Twins" });
    await s.attachments.upload(tool, { releaseId: v3.id }, { name: "same.bin", body: bytes("one") });
    await s.attachments.upload(tool, { releaseId: v3.id }, { name: "same.bin", body: bytes("two") });
    await s.releases.create(tool, owner, { tagName: "team/beta", title: "Slashed" });
    const hush = await s.access.repo(actorFor(owner), "rel-owner", "hush");
    await s.releases.create(hush, owner, { tagName: "v9", title: "Hushed" });
  });
  afterAll(() => t?.close());

  it("lists releases with sanitized notes, tag, author, assets and archive links; drafts only for writers", async () => {
    const page = await t.browser().get("/rel-owner/tool/releases");
    expect(page.status).toBe(200);
    expect(page.html).toContain("First cut");
    expect(page.html).toContain("<strong>bugs</strong>");
    expect(page.html).not.toContain("<script>alert(1)");
    expect(page.html).not.toContain("javascript:alert(2)");
    expect(page.html).toContain("<code>v1.0</code>");
    expect(page.html).toContain('href="/rel-owner"');
    expect(page.html).toContain('href="http://kiln.test/rel-owner/tool/releases/download/v1.0/tool.tar.gz"');
    expect(page.html).toContain("10 B");
    expect(page.html).toContain('href="/rel-owner/tool/archive/v1.0.zip"');
    expect(page.html).not.toContain("Secret draft");
    const owner = await t.signedIn((await t.services.users.findByName("rel-owner"))!);
    expect((await owner.get("/rel-owner/tool/releases")).html).toContain("Secret draft");
    expect((await owner.get("/rel-owner/tool/releases/tag/v2.0-rc")).status).toBe(200);
    expect((await t.browser().get("/rel-owner/tool/releases/tag/v2.0-rc")).status).toBe(404);
  });

  // The download itself is the API app's (packages/http/src/attachments/download.test.ts).
  it("shows one release by tag", async () => {
    const b = t.browser();
    const page = await b.get("/rel-owner/tool/releases/tag/v1.0");
    expect(page.status).toBe(200);
    expect(page.html).toContain("First cut");
    expect(page.html).not.toContain("Twins");
    expect((await b.get("/rel-owner/tool/releases/tag/nope")).status).toBe(404);
    const slashed = await b.get("/rel-owner/tool/releases/tag/team/beta");
    expect(slashed.status).toBe(200);
    expect(slashed.html).toContain("Slashed");
    expect(slashed.html).toContain('href="/rel-owner/tool/archive/team/beta.zip"');
    expect((await b.get(`/rel-owner/tool/releases/tag/${"x".repeat(300)}`)).status).toBe(404);
  });

  it("links assets that share a name by their uuid, as the API does", async () => {
    const page = await t.browser().get("/rel-owner/tool/releases/tag/v3.0");
    const links = [...page.html.matchAll(/href="(http:\/\/kiln\.test\/attachments\/[0-9a-f-]{36})"/g)];
    expect(links).toHaveLength(2);
  });

  it("is 404 for a private repository's releases to anonymous visitors and outsiders", async () => {
    const outsider = await t.signedIn(await t.user());
    for (const b of [t.browser(), outsider]) {
      expect((await b.get("/rel-owner/hush/releases")).status).toBe(404);
      expect((await b.get("/rel-owner/hush/releases/tag/v9")).status).toBe(404);
    }
  });
});
