import { globSteps } from "@kiln/git";
import { describe, expect, it } from "vitest";
import { editorconfigProps, MAX_SECTIONS, parseEditorconfig } from "./editorconfig.js";

const props = (text: string, path: string) =>
  Object.fromEntries(editorconfigProps(parseEditorconfig(text), path));

describe("EditorConfig sections", () => {
  const config = [
    "root = true",
    "; a comment",
    "[*]",
    "indent_style = space",
    "indent_size = 2",
    "[*.{go,mod}]",
    "indent_style = TAB",
    "indent_size = tab",
    "tab_width = 8",
    "[/Makefile]",
    "indent_style = tab",
    "[docs/**.md]",
    "trim_trailing_whitespace = false",
    "[**/vendor/**]",
    "charset = latin1",
  ].join("\n");

  it("match as the specification: globs without / at any depth, with / from the root, later sections winning", () => {
    expect(props(config, "a.ts")).toEqual({ indent_style: "space", indent_size: 2, tab_width: 2 });
    expect(props(config, "cmd/go.mod")).toEqual({ indent_style: "tab", indent_size: 8, tab_width: 8 });
    expect(props(config, "Makefile")).toMatchObject({ indent_style: "tab", indent_size: 2 });
    expect(props(config, "sub/Makefile")).toMatchObject({ indent_style: "space" });
    expect(props(config, "docs/a/b.md")).toMatchObject({ trim_trailing_whitespace: false });
    expect(props(config, "x/docs/b.md").trim_trailing_whitespace).toBeUndefined();
    expect(props(config, "vendor/lib.c")).toMatchObject({ charset: "latin1" });
    expect(props(config, "a/vendor/b/lib.c")).toMatchObject({ charset: "latin1" });
  });

  it("derive indent_size from tab indentation", () => {
    expect(props("[*]\nindent_style = tab", "x")).toEqual({ indent_style: "tab", indent_size: "tab" });
  });

  it("match crafted sections correctly in bounded work, and ignore sections past the limits", () => {
    const crafted = `[${"*a".repeat(60)}b]\ncharset = latin1`;
    const before = globSteps();
    expect(props(crafted, "a".repeat(4000)).charset).toBeUndefined();
    expect(globSteps() - before).toBeLessThan(4 * 122 * 4002);
    expect(props(crafted, `${"a".repeat(60)}b`).charset).toBe("latin1");
    const many = Array.from({ length: MAX_SECTIONS + 1 }, (_, i) => `[f${i}]\ncharset = c${i}`).join("\n");
    expect(props(many, `f${MAX_SECTIONS - 1}`).charset).toBe(`c${MAX_SECTIONS - 1}`);
    expect(props(many, `f${MAX_SECTIONS}`).charset).toBeUndefined();
  });
});
