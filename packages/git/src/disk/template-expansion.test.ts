import { describe, expect, it } from "vitest";
import {
  ExpansionTooLargeError,
  expandTemplate,
  goExpand,
  sanitizeFileName,
  templateVariables,
} from "./template-expansion.js";

const vars = templateVariables({
  repo: {
    owner: "Some-Owner",
    name: "myCoolRepo",
    description: "d",
    link: "/o/r",
    httpsUrl: "https://x/o/r.git",
  },
  template: {
    owner: "tpl-owner",
    name: "the_template",
    description: "t",
    link: "/t/t",
    httpsUrl: "https://x/t/t.git",
  },
  now: new Date(2026, 10, 6),
});

describe("template expansion (Forgejo's generateExpansion over os.Expand)", () => {
  it("expands $NAME and ${NAME}, and leaves unknown names without their $", () => {
    expect(expandTemplate("$REPO_NAME/${REPO_OWNER}-$NOPE ${X}", vars)).toBe("myCoolRepo/Some-Owner-NOPE X");
  });

  it("follows Go's os.Expand on the edges", () => {
    const id = (name: string) => `<${name}>`;
    expect(goExpand("a$", id)).toBe("a$");
    expect(goExpand("$$ $1x ${} ${unterminated", id)).toBe("<$> <1>x  unterminated");
    expect(goExpand("cost: $ 5", id)).toBe("cost: $ 5");
    expect(goExpand("${@}", id)).toBe("<@>");
  });

  it("offers the transformed forms and the date", () => {
    expect(vars.get("REPO_NAME_SNAKE")).toBe("my_cool_repo");
    expect(vars.get("REPO_NAME_KEBAB")).toBe("my-cool-repo");
    expect(vars.get("TEMPLATE_NAME_PASCAL")).toBe("TheTemplate");
    expect(vars.get("TEMPLATE_NAME_CAMEL")).toBe("theTemplate");
    expect(vars.get("REPO_OWNER_UPPER")).toBe("SOME-OWNER");
    expect(vars.get("REPO_OWNER_LOWER")).toBe("some-owner");
    expect(vars.get("TEMPLATE_OWNER_TITLE")).toBe("Tpl-Owner");
    expect([vars.get("YEAR"), vars.get("MONTH"), vars.get("DAY")]).toEqual(["2026", "11", "06"]);
    expect(vars.get("MONTH_ENGLISH_UPPER")).toBe("NOVEMBER");
  });

  it("sanitizes expansions inside paths so they add no directory and climb nowhere", () => {
    const evil = templateVariables({
      repo: { owner: "o", name: "../x/y", description: "", link: "", httpsUrl: "" },
      template: { owner: "t", name: "t", description: "", link: "", httpsUrl: "" },
      now: new Date(),
    });
    expect(expandTemplate("src/$REPO_NAME.txt", evil, true)).toBe("src/__x_y.txt");
    expect(sanitizeFileName(" con ")).toBe("con");
    expect(sanitizeFileName("con")).toBe("_");
  });

  it("expands a megabyte of unclosed ${ in one pass (a rescan per ${ would take minutes: the test would time out)", () => {
    const id = (name: string) => `<${name}>`;
    const unclosed = "${".repeat(512 * 1024);
    // Each unclosed `${` is dropped with its brace, as Go does.
    expect(goExpand(unclosed, id)).toBe("");
    expect(goExpand(`${unclosed}x}`, id)).toBe(`<${"${".repeat(512 * 1024 - 1)}x>`);
    expect(goExpand("$".repeat(1024 * 1024), id)).toBe(`${"<$>".repeat(512 * 1024)}`);
    expect(goExpand("$A".repeat(512 * 1024), id)).toBe("<A>".repeat(512 * 1024));
  });

  it("refuses to grow past the limit it is given", () => {
    const big = templateVariables({
      repo: { owner: "o", name: "r", description: "d".repeat(2000), link: "", httpsUrl: "" },
      template: { owner: "t", name: "t", description: "", link: "", httpsUrl: "" },
      now: new Date(),
    });
    const src = "$REPO_DESCRIPTION\n".repeat(1000);
    expect(() => expandTemplate(src, big, false, 1024 * 1024)).toThrow(ExpansionTooLargeError);
    expect(expandTemplate(src, big, false, 3 * 1024 * 1024)).toHaveLength(2001 * 1000);
    expect(() => goExpand("x".repeat(10), (n) => n, 5)).toThrow(ExpansionTooLargeError);
  });
});
