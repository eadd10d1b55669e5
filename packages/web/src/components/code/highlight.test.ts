import { describe, expect, it } from "vitest";
import { escapeHtml, highlightLines, languageFor, MAX_HIGHLIGHT_SIZE, splitLines } from "./highlight.js";
import { Lru } from "./lru.js";

describe("highlighting", () => {
  it("picks a language by extension or name, and none for unknown files", async () => {
    expect(await languageFor("main.ts")).toBe("ts");
    expect(await languageFor("Makefile")).toBe("makefile");
    expect(await languageFor("notes.unknownext")).toBeUndefined();
    expect(await languageFor(".gitignore")).toBeUndefined();
  });

  it("closes spans at each line's end and reopens them on the next", () => {
    expect(splitLines('<span class="a">x\ny</span>\nz')).toEqual([
      '<span class="a">x</span>',
      '<span class="a">y</span>',
      "z",
    ]);
  });

  it("escapes plain text and highlighted code, line by line", async () => {
    expect(await highlightLines("sha1", "a.txt", "<b>\n&\n")).toEqual(["&lt;b&gt;", "&amp;"]);
    const lines = await highlightLines("sha2", "a.js", "/* a\n b */\nconst x = '<i>';");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('<span class="hljs-comment"> b */</span>');
    expect(lines[2]).toContain("&lt;i&gt;");
    const big = await highlightLines("sha3", "big.js", "const a = 1;\n".repeat(MAX_HIGHLIGHT_SIZE / 10));
    expect(big[0]).toBe("const a = 1;");
    expect(escapeHtml(`"'`)).toBe("&quot;&#x27;");
  });
});

describe("Lru", () => {
  it("drops the least recently used entry past its count or weight, and never keeps an oversized one", () => {
    const lru = new Lru<number>(2, 10);
    lru.set("a", 1, 3);
    lru.set("b", 2, 3);
    lru.get("a");
    lru.set("c", 3, 3);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    lru.set("big", 4, 11);
    expect(lru.get("big")).toBeUndefined();
    lru.set("d", 5, 8);
    expect(lru.size).toBe(1);
  });
});
