import type { User } from "@kiln/domain";
import { actorFor } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

const text = (s: string) => new TextEncoder().encode(s);

describe.each(DIALECTS)("the history pages on %s", (dialect) => {
  let t: WebTestApp;
  let owner: User;
  let head = "";
  let featureSha = "";

  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    owner = await t.user({ name: "historian" });
    const s = t.services;
    const created = await s.repositories.create(owner, owner, { name: "chronicle", autoInit: true });
    await s.repositories.create(owner, owner, { name: "hidden-chronicle", private: true, autoInit: true });
    for (let i = 0; i < 3; i++) {
      const r = await s.files.changeFiles(
        created,
        owner,
        [{ operation: "create", path: `notes/n${i}.txt`, content: text(`note ${i}\nline two\n`) }],
        {
          message: `Add note ${i}\n\nThe body of note ${i}.`,
        },
      );
      head = r.commit.sha;
    }
    await s.files.changeFiles(
      created,
      owner,
      [{ operation: "create", path: "logo.bin", content: new Uint8Array([0, 1, 2, 0]) }],
      {
        message: "Add a binary",
      },
    );
    const feature = await s.files.changeFiles(
      created,
      owner,
      [
        {
          operation: "create",
          path: "src/feature.ts",
          content: text("export const feature = 1;\nexport const two = 2;\n"),
        },
      ],
      { newBranch: "feature/x", message: "Start the feature" },
    );
    featureSha = feature.commit.sha;
    await s.tags.create(created, owner, { name: "v1.0", target: "main" });
    const access = await s.access.repo(actorFor(owner), "historian", "chronicle");
    const pull = await s.pulls.create(access, {
      head: "feature/x",
      base: "main",
      title: "Bring the feature",
    });
    await s.reviews.create(access, pull.issue.index, {
      event: "COMMENT",
      body: "",
      comments: [{ path: "src/feature.ts", body: "Why **two**?", oldPosition: 0, newPosition: 2 }],
    });
  }, 120_000);
  afterAll(() => t?.close());

  it("lists a branch's commits newest first, with links, paged by limit", async () => {
    const b = t.browser();
    const res = await b.get("/historian/chronicle/commits/branch/main");
    expect(res.status).toBe(200);
    expect(res.html).toContain("Add a binary");
    expect(res.html.indexOf("Add a binary")).toBeLessThan(res.html.indexOf("Add note 2"));
    expect(res.html).toContain(`href="/historian/chronicle/commit/${head}"`);
    expect(res.html).toContain(`>${head.slice(0, 10)}<`);
    expect(res.html).toContain("historian");
    const paged = await b.get("/historian/chronicle/commits/branch/main?limit=2&page=2");
    expect(paged.html).toContain("Add note 1");
    expect(paged.html).not.toContain("Add a binary");
    expect(paged.html).toContain('href="/historian/chronicle/commits/branch/main?limit=2&amp;page=3"');
    expect(
      (await b.get("/historian/chronicle/commits/branch/main?limit=99999&page=99999999999")).status,
    ).toBe(200);
  });

  it("reads a branch name with a slash, a path's history, tags and commits", async () => {
    const b = t.browser();
    const feature = await b.get("/historian/chronicle/commits/branch/feature/x");
    expect(feature.status).toBe(200);
    expect(feature.html).toContain("Start the feature");
    const path = await b.get("/historian/chronicle/commits/branch/feature/x/notes/n1.txt");
    expect(path.status).toBe(200);
    expect(path.html).toContain("History of notes/n1.txt");
    expect(path.html).toContain("Add note 1");
    expect(path.html).not.toContain("Add note 2");
    expect((await b.get("/historian/chronicle/commits/tag/v1.0")).html).toContain("Add a binary");
    expect((await b.get(`/historian/chronicle/commits/commit/${head}`)).html).toContain("Add note 2");
    expect((await b.get("/historian/chronicle/commits/branch/nope")).status).toBe(404);
    expect((await b.get("/historian/chronicle/commits/branch/main/no/such/file")).status).toBe(404);
  });

  it("shows a commit with its diff, unified or split, and 404 for a bad sha", async () => {
    const b = t.browser();
    const unified = await b.get(`/historian/chronicle/commit/${featureSha}`);
    expect(unified.status).toBe(200);
    expect(unified.html).toContain("Start the feature");
    expect(unified.html).toContain("src/feature.ts");
    expect(unified.html).toContain('class="diff-table diff-unified"');
    expect(unified.html).toMatch(/class="diff-code diff-add">export const two = 2;/);
    expect(unified.html).toContain("@@ -0,0 +1,2 @@");
    expect(unified.html).toContain("parent");
    const split = await b.get(`/historian/chronicle/commit/${featureSha}?style=split`);
    expect(split.html).toContain('class="diff-table diff-split"');
    // Rendered once per commit and layout: a second visit shows the same diff, each in its layout.
    const diffOf = (html: string) => html.slice(html.indexOf('<div class="diff">'));
    const again = await b.get(`/historian/chronicle/commit/${featureSha}`);
    expect(diffOf(again.html)).toBe(diffOf(unified.html));
    expect(again.html).toContain('class="diff-table diff-unified"');
    expect(again.html).not.toContain('class="diff-table diff-split"');
    const binary = await b.get("/historian/chronicle/commits/branch/main?limit=1");
    const binarySha = /commit\/([0-9a-f]{40})"/.exec(binary.html)?.[1] ?? "";
    expect((await b.get(`/historian/chronicle/commit/${binarySha}`)).html).toContain(
      "Binary file not shown.",
    );
    expect((await b.get(`/historian/chronicle/commit/${"0".repeat(40)}`)).status).toBe(404);
    expect((await b.get("/historian/chronicle/commit/not-a-sha")).status).toBe(404);
  });

  it("shows a pull request's files with its review comment in place, and its commits", async () => {
    const b = t.browser();
    const files = await b.get("/historian/chronicle/pulls/1/files");
    expect(files.status).toBe(200);
    expect(files.html).toContain("Bring the feature");
    expect(files.html).toContain("src/feature.ts");
    expect(files.html).toContain("<strong>two</strong>");
    // The comment sits right after its line.
    expect(files.html.indexOf("export const two = 2;")).toBeLessThan(files.html.indexOf("Why"));
    expect(files.html).toContain('href="/historian/chronicle/pulls/1"');
    const split = await b.get("/historian/chronicle/pulls/1/files?style=split");
    expect(split.html).toContain("diff-split");
    expect(split.html).toContain("<strong>two</strong>");
    const commits = await b.get("/historian/chronicle/pulls/1/commits");
    expect(commits.status).toBe(200);
    expect(commits.html).toContain("Start the feature");
    expect(commits.html).not.toContain("Add note 1");
    expect((await b.get("/historian/chronicle/pulls/99/files")).status).toBe(404);
    expect((await b.get("/historian/chronicle/pulls/99999999999999999999/files")).status).toBe(404);
  });

  it("lists branches (default first, ahead and behind) and tags with downloads", async () => {
    const b = t.browser();
    const branches = await b.get("/historian/chronicle/branches");
    expect(branches.status).toBe(200);
    expect(branches.html.indexOf(">main<")).toBeLessThan(branches.html.indexOf(">feature/x<"));
    expect(branches.html).toContain('href="/historian/chronicle/commits/branch/feature/x"');
    expect(branches.html).toContain("1 ahead");
    const tags = await b.get("/historian/chronicle/tags");
    expect(tags.status).toBe(200);
    expect(tags.html).toContain("v1.0");
    expect(tags.html).toContain('href="/historian/chronicle/archive/v1.0.zip"');
    expect(tags.html).toContain('href="/historian/chronicle/archive/v1.0.tar.gz"');
  });

  it("is 404 for a private repository's pages to anonymous visitors and outsiders, 200 to the owner", async () => {
    const outsider = await t.signedIn(await t.user({ name: "nosy" }));
    const paths = [
      "/historian/hidden-chronicle/commits/branch/main",
      "/historian/hidden-chronicle/branches",
      "/historian/hidden-chronicle/tags",
    ];
    for (const path of paths) {
      expect((await t.browser().get(path)).status).toBe(404);
      expect((await outsider.get(path)).status).toBe(404);
    }
    const mine = await t.signedIn(owner);
    expect((await mine.get(paths[0] ?? "")).status).toBe(200);
  });
});
