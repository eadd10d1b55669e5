import { describe, expect, it } from "vitest";
import { MarkdownRenderer } from "./markdown.js";

const renderer = new MarkdownRenderer();
const links = {
  rootUrl: "https://forge.example/",
  prefix: "https://forge.example/alice/project",
  mentionable: (name: string) => name.toLowerCase() === "bob",
};

describe("MarkdownRenderer", () => {
  it("renders CommonMark with GitHub's tables, strikethrough, autolinks and task lists", () => {
    const html = renderer.render(
      "| a | b |\n|:-|-:|\n| 1 | 2 |\n\n~~old~~ https://example.com\n\n- [x] done\n- [ ] todo\n",
      { mode: "raw" },
    );
    expect(html).toContain("<table>");
    expect(html).toContain('<td style="text-align:right">2</td>');
    expect(html).toContain("<s>old</s>");
    expect(html).toContain('<a href="https://example.com">https://example.com</a>');
    expect(html).toContain(
      '<li class="task-list-item"><input class="task-list-item-checkbox" checked disabled type="checkbox" /> done</li>',
    );
    expect(html).toContain('<input class="task-list-item-checkbox" disabled type="checkbox" /> todo');
  });

  it("strips scripts, event handlers, styles and javascript: links", () => {
    const html = renderer.render(
      '<script>alert(1)</script><img src="x" onerror="alert(1)">\n\n[x](javascript:alert(1)) <a href="#" style="color:red" onclick="x()">y</a> ![i](pic.png)\n\n<iframe src="https://evil"></iframe>',
      { mode: "document", links },
    );
    expect(html).not.toMatch(/<script|onerror|onclick|href="javascript:|iframe|style=/i);
    expect(html).toContain('<a href="#">y</a>');
    expect(html).toContain('<img src="https://forge.example/alice/project/pic.png" alt="i" />');
  });

  it("links mentions of visible accounts and issue references, not inside code or links", () => {
    const html = renderer.render(
      "@bob and @carol see #12 and other/repo#3, `@bob #4`, [@bob](https://x.test) mail me@bob.test",
      { mode: "document", links },
    );
    expect(html).toContain('<a href="https://forge.example/bob" class="mention">@bob</a> and @carol');
    expect(html).toContain(
      '<a href="https://forge.example/alice/project/issues/12" class="ref-issue">#12</a>',
    );
    expect(html).toContain(
      '<a href="https://forge.example/other/repo/issues/3" class="ref-issue">other/repo#3</a>',
    );
    expect(html).toContain("<code>@bob #4</code>");
    expect(html).toContain('<a href="https://x.test">@bob</a>');
    expect(html).toContain("me@bob.test");
    expect(html).not.toContain('me<a href="https://forge.example/bob"');
  });

  it("leaves references and relative links alone in raw mode", () => {
    const html = renderer.render("@bob #1 [doc](docs/a.md)", { mode: "raw", links });
    expect(html).toBe('<p>@bob #1 <a href="docs/a.md">doc</a></p>\n');
  });

  it("resolves relative links against the context, wiki links against its wiki", () => {
    expect(renderer.render("[a](docs/a.md) [b](/abs) [c](#top)", { mode: "document", links })).toBe(
      '<p><a href="https://forge.example/alice/project/docs/a.md">a</a> <a href="/abs">b</a> <a href="#top">c</a></p>\n',
    );
    expect(renderer.render("[Home](Home) ![i](pic.png)", { mode: "document", links, wiki: true })).toBe(
      '<p><a href="https://forge.example/alice/project/wiki/Home">Home</a> <img src="https://forge.example/alice/project/wiki/raw/pic.png" alt="i" /></p>\n',
    );
  });

  it("keeps single line breaks in comments only", () => {
    expect(renderer.render("a\nb", { mode: "comment", links })).toBe("<p>a<br />\nb</p>\n");
    expect(renderer.render("a\nb", { mode: "document", links })).toBe("<p>a\nb</p>\n");
  });

  it("renders footnotes with their anchors", () => {
    const html = renderer.render("Text[^1]\n\n[^1]: Note\n", { mode: "document", links });
    expect(html).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(html).toContain('<li id="fn1" class="footnote-item">');
  });
});
