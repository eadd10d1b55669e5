import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe.each(DIALECTS)("a repository's home on %s", (dialect) => {
  let t: WebTestApp;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    const owner = await t.user({ name: "homer" });
    const repo = await t.services.repositories.create(owner, owner, { name: "house", autoInit: true });
    await t.services.files.changeFiles(
      repo,
      owner,
      [{ operation: "create", path: "lib/app.ts", content: bytes("export const a = 1;\n".repeat(20)) }],
      {},
    );
    await t.services.files.changeFiles(
      repo,
      owner,
      [{ operation: "create", path: "NEXT.md", content: bytes("next") }],
      { newBranch: "next/one" },
    );
    await t.services.repositories.create(owner, owner, { name: "void" });
  });
  afterAll(() => t?.close());

  it("shows the default branch's root with last commits, its README, the languages and the branches", async () => {
    const res = await t.browser().get("/homer/house");
    expect(res.status).toBe(200);
    expect(res.html).toContain('href="/homer/house/src/branch/main/README.md"');
    expect(res.html).toMatch(/href="\/homer\/house\/commit\/[0-9a-f]{40}"/);
    expect(res.html).toContain('id="readme-title"');
    expect(res.html).toMatch(/<strong>TypeScript<\/strong> <span class="muted">\d+\.\d%<\/span>/);
    expect(res.html).toContain('href="/homer/house/src/branch/next/one"');
    expect(res.html).toContain('data-copy="clone-url"');
  });

  it("keeps an empty repository's page as it was", async () => {
    const res = await t.browser().get("/homer/void");
    expect(res.status).toBe(200);
    expect(res.html).toContain("This repository is empty.");
    expect(res.html).not.toContain("tree-table");
  });
});
