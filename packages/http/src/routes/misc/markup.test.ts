import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("POST /markdown, /markdown/raw and /markup on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let hidden: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice-md" });
    hidden = await t.user({ name: "hidden-md", visibility: "private" });
  });
  afterAll(() => t?.close());

  it("renders GitHub Flavored Markdown with mentions, issue references and relative links", async () => {
    const res = await t.call("POST", "/markdown", {
      body: {
        Text: "Hi @alice-md, see #7 and [the guide](docs/guide.md)",
        Mode: "gfm",
        Context: "alice-md/tools",
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.text).toBe(
      '<p>Hi <a href="http://kiln.test/alice-md" class="mention">@alice-md</a>, see ' +
        '<a href="http://kiln.test/alice-md/tools/issues/7" class="ref-issue">#7</a> and ' +
        '<a href="http://kiln.test/alice-md/tools/docs/guide.md">the guide</a></p>\n',
    );
  });

  it("accepts the field names in any case, as Forgejo's decoder does, and plain mode resolves nothing", async () => {
    const res = await t.call("POST", "/markdown", { body: { text: "**@alice-md** #7", mode: "markdown" } });
    expect(res.status).toBe(200);
    expect(res.text).toBe("<p><strong>@alice-md</strong> #7</p>\n");
  });

  it("links a private account's mention only for those who may see it", async () => {
    const body = { Text: `cc @${hidden.name}`, Mode: "comment" };
    const anonymous = await t.call("POST", "/markdown", { body });
    expect(anonymous.text).toBe(`<p>cc @${hidden.name}</p>\n`);
    const outsider = await t.call("POST", "/markdown", { body, token: alice.token });
    expect(outsider.text).toBe(`<p>cc @${hidden.name}</p>\n`);
    const self = await t.call("POST", "/markdown", { body, token: hidden.token });
    expect(self.text).toContain(
      `<a href="http://kiln.test/${hidden.name}" class="mention">@${hidden.name}</a>`,
    );
  });

  it("sanitizes what it renders", async () => {
    const res = await t.call("POST", "/markdown/raw", {
      rawBody: '# Title\n\n<img src="https://x.test/a.png" onerror="steal()"><script>steal()</script>',
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('<h1>Title</h1>\n<p><img src="https://x.test/a.png" /></p>\n');
  });

  it("renders an empty text as an empty answer", async () => {
    const res = await t.call("POST", "/markup", { body: { Text: "", Mode: "nonsense" } });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });

  it("refuses an unknown mode and a file that is not Markdown with 422", async () => {
    const mode = await t.call("POST", "/markup", { body: { Text: "x", Mode: "asciidoc" } });
    expect(mode.status).toBe(422);
    expect(mode.json.message).toBe("Unknown mode: asciidoc");
    const file = await t.call("POST", "/markup", { body: { Text: "x", Mode: "file", FilePath: "a/b.rst" } });
    expect(file.status).toBe(422);
    expect(file.json.message).toBe("Unsupported render extension: .rst");
    const md = await t.call("POST", "/markup", {
      body: { Text: "[p](Page)", Mode: "file", FilePath: "README.md", Wiki: true, Context: "alice-md/tools" },
    });
    expect(md.text).toBe('<p><a href="http://kiln.test/alice-md/tools/wiki/Page">p</a></p>\n');
  });

  it("answers a wrong field type with 422 and a body over the limit with 413", async () => {
    const wrong = await t.call("POST", "/markdown", { body: { Text: 5 } });
    expect(wrong.status).toBe(422);
    const limit = t.settings.api.maxBodySize;
    const big = await t.call("POST", "/markdown/raw", { rawBody: "a".repeat(limit + 1) });
    expect(big.status).toBe(413);
  });
});
