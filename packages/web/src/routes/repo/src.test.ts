import type { Repository, User } from "@kiln/domain";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebTestApp, type WebTestApp } from "../../../test/support.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const POINTER = `version https://git-lfs.github.com/spec/v1\noid sha256:${"a".repeat(64)}\nsize 123456\n`;
const CODE = Array.from({ length: 30 }, (_, i) => `export const v${i} = "s${i}";`).join("\n");

describe.each(DIALECTS)("the code pages on %s", (dialect) => {
  let t: WebTestApp;
  let owner: User;
  let repo: Repository;
  beforeAll(async () => {
    t = await openWebTestApp(dialect);
    owner = await t.user({ name: "coder" });
    repo = await t.services.repositories.create(owner, owner, { name: "code", autoInit: true });
    await t.services.files.changeFiles(
      repo,
      owner,
      [
        { operation: "create", path: "src/main.ts", content: bytes(CODE) },
        {
          operation: "create",
          path: "docs/guide.md",
          content: bytes("# Guide\n\nSee [setup](setup.md) ![logo](logo.png) #1\n"),
        },
        { operation: "create", path: "logo.png", content: PNG },
        { operation: "create", path: "data.bin", content: new Uint8Array([1, 0, 2, 0, 3]) },
        { operation: "create", path: "model.bin", content: bytes(POINTER) },
        { operation: "create", path: "page.html", content: bytes("<script>alert(1)</script>") },
        {
          operation: "create",
          path: "pic.svg",
          content: bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
        },
      ],
      {},
    );
    await t.services.files.changeFiles(
      repo,
      owner,
      [{ operation: "create", path: "only-here.txt", content: bytes("feature text") }],
      { newBranch: "feature/x" },
    );
    await t.services.repositories.create(owner, owner, { name: "hidden", autoInit: true, private: true });
  });
  afterAll(() => t?.close());

  it("lists a tree with directories first, last commits, breadcrumbs and the README", async () => {
    const res = await t.browser().get("/coder/code/src/branch/main");
    expect(res.status).toBe(200);
    const names = [
      ...res.html.matchAll(/<th scope="row" class="tree-name">.*?<a href="[^"]+">([^<]+)<\/a>/g),
    ].map((m) => m[1]);
    expect(names.slice(0, 2)).toEqual(["docs", "src"]);
    expect(names).toContain("README.md");
    expect(res.html).toContain('href="/coder/code/src/branch/main/src"');
    expect(res.html).toMatch(/href="\/coder\/code\/commit\/[0-9a-f]{40}"/);
    expect(res.html).toContain('id="readme-title"');
    const sub = await t.browser().get("/coder/code/src/branch/main/docs");
    expect(sub.html).toContain('<a href="/coder/code/src/branch/main">code</a>');
    expect(sub.html).toContain('<span aria-current="page">docs</span>');
  });

  it("highlights a file with numbered, anchored lines and links to raw and history", async () => {
    const res = await t.browser().get("/coder/code/src/branch/main/src/main.ts");
    expect(res.status).toBe(200);
    expect(res.html).toContain('<tr id="L1"><td class="line-num"><a href="#L1">1</a>');
    expect(res.html).toContain('id="L30"');
    expect(res.html).not.toContain('id="L31"');
    expect(res.html).toContain('<span class="hljs-keyword">export</span>');
    expect(res.html).toContain('href="/coder/code/raw/branch/main/src/main.ts"');
    expect(res.html).toContain('href="/coder/code/commits/branch/main/src/main.ts"');
    expect(res.html).toContain("30 lines");
  });

  it("renders a Markdown file with links in its directory, and shows its source on request", async () => {
    const res = await t.browser().get("/coder/code/src/branch/main/docs/guide.md");
    expect(res.html).toContain("<h1");
    expect(res.html).toContain('href="http://kiln.test/coder/code/src/branch/main/docs/setup.md"');
    expect(res.html).toContain('src="http://kiln.test/coder/code/media/branch/main/docs/logo.png"');
    expect(res.html).toContain('href="/coder/code/src/branch/main/docs/guide.md?display=source"');
    const source = await t.browser().get("/coder/code/src/branch/main/docs/guide.md?display=source");
    expect(source.html).toContain('id="L1"');
    expect(source.html).not.toContain("Guide</h1>");
  });

  it("shows images, LFS pointers and binary files without dumping them", async () => {
    const image = await t.browser().get("/coder/code/src/branch/main/logo.png");
    expect(image.html).toContain('<img src="/coder/code/raw/branch/main/logo.png" alt="logo.png"');
    const lfs = await t.browser().get("/coder/code/src/branch/main/model.bin");
    expect(lfs.html).toContain("Stored with Git LFS: 120.6 KiB");
    expect(lfs.html).not.toContain("version https://git-lfs");
    const binary = await t.browser().get("/coder/code/src/branch/main/data.bin");
    expect(binary.html).toContain("Binary file, not shown.");
  });

  it("serves raw files, HTML as plain text and SVG under a policy that runs nothing", async () => {
    const png = await t.browser().get("/coder/code/raw/branch/main/logo.png");
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const html = await t.browser().get("/coder/code/raw/branch/main/page.html");
    expect(html.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(html.html).toBe("<script>alert(1)</script>");
    const svg = await t.browser().get("/coder/code/raw/branch/main/pic.svg");
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("content-security-policy")).toContain("sandbox");
    expect((await t.browser().get("/coder/code/media/branch/main/model.bin")).html).toBe(POINTER);
  });

  it("serves a blob by its id (raw and media), and 404 for an id that is no blob of the repository", async () => {
    const b = t.browser();
    const page = await t.services.contents.raw(repo, "page.html", "main");
    const raw = await b.get(`/coder/code/raw/blob/${page.sha}`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(raw.html).toBe("<script>alert(1)</script>");
    const pointer = await t.services.contents.raw(repo, "model.bin", "main");
    expect((await b.get(`/coder/code/media/blob/${pointer.sha}`)).html).toBe(POINTER);
    const head = /href="\/coder\/code\/commit\/([0-9a-f]{40})"/.exec(
      (await b.get("/coder/code/src/branch/main")).html,
    )?.[1];
    expect((await b.get(`/coder/code/raw/blob/${head}`)).status).toBe(404);
    expect((await b.get(`/coder/code/raw/blob/${"0".repeat(40)}`)).status).toBe(404);
    // Another repository's blob is not this one's to serve, and a private one stays hidden.
    const hidden = await t.services.repositories.create(owner, owner, {
      name: "blobs",
      private: true,
      autoInit: true,
    });
    const secret = await t.services.contents.raw(hidden, "README.md", "main");
    expect((await b.get(`/coder/blobs/raw/blob/${secret.sha}`)).status).toBe(404);
    expect((await b.get(`/coder/code/raw/blob/${secret.sha}`)).status).toBe(404);
    expect((await (await t.signedIn(owner)).get(`/coder/blobs/raw/blob/${secret.sha}`)).status).toBe(200);
  });

  it("finds a branch whose name has a slash, a commit by sha, and the legacy path", async () => {
    const res = await t.browser().get("/coder/code/src/branch/feature/x/only-here.txt");
    expect(res.status).toBe(200);
    expect(res.html).toContain("feature text");
    expect(res.html).toContain('href="/coder/code/raw/branch/feature/x/only-here.txt"');
    const tree = await t.browser().get("/coder/code/src/branch/feature/x");
    expect(tree.html).toContain('href="/coder/code/src/branch/feature/x/only-here.txt"');
    const sha = /href="\/coder\/code\/commit\/([0-9a-f]{40})"/.exec(tree.html)?.[1] ?? "";
    const byCommit = await t.browser().get(`/coder/code/src/commit/${sha.slice(0, 10)}/README.md`);
    expect(byCommit.status).toBe(200);
    expect(byCommit.html).toContain(`href="/coder/code/raw/commit/${sha}/README.md"`);
    expect((await t.browser().get("/coder/code/src/feature/x/only-here.txt")).status).toBe(200);
  });

  it("blames each line of a file with the commit that last changed it", async () => {
    const file = await t.browser().get("/coder/code/src/branch/main/src/main.ts");
    expect(file.html).toContain('href="/coder/code/blame/branch/main/src/main.ts"');
    const res = await t.browser().get("/coder/code/blame/branch/main/src/main.ts");
    expect(res.status).toBe(200);
    expect(res.html).toMatch(
      /<tr id="L1" class="blame-start"><td class="blame-info"><a href="\/coder\/code\/commit\/[0-9a-f]{40}">/,
    );
    expect(res.html).toContain('<tr id="L2"><td class="blame-info"></td>');
    expect(res.html).toContain("coder, ");
    expect(res.html).toContain('id="L30"');
    expect((await t.browser().get("/coder/code/blame/branch/main/data.bin")).html).toContain(
      "cannot be blamed",
    );
    expect((await t.browser().get("/coder/code/blame/branch/main/docs")).status).toBe(404);
    expect((await t.browser().get("/coder/hidden/blame/branch/main/README.md")).status).toBe(404);
  });

  it("is 404 for a missing path or ref, and for a private repository to anonymous and outsiders", async () => {
    const b = t.browser();
    expect((await b.get("/coder/code/src/branch/main/nope.txt")).status).toBe(404);
    expect((await b.get("/coder/code/src/branch/nope/README.md")).status).toBe(404);
    expect((await b.get("/coder/code/src/tag/main/README.md")).status).toBe(404);
    expect((await b.get("/coder/code/src/commit/zzzz/README.md")).status).toBe(404);
    expect((await b.get("/coder/hidden/src/branch/main/README.md")).status).toBe(404);
    expect((await b.get("/coder/hidden/raw/branch/main/README.md")).status).toBe(404);
    const outsider = await t.signedIn(await t.user());
    const page = await outsider.get("/coder/hidden/src/branch/main");
    expect(page.status).toBe(404);
    expect(page.html).not.toContain("README.md");
    const mine = await t.signedIn(owner);
    expect((await mine.get("/coder/hidden/src/branch/main/README.md")).status).toBe(200);
  });
});
