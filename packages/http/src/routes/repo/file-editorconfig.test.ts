import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe.each(DIALECTS)("GET /editorconfig/{filepath} on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;

  let as: AsCaller;

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner],
    } = await openWorld(dialect, { users: ["owner"], repo: { name: "styled" } }));
    expect((await as(owner, "POST", "/branches", { new_branch_name: "plain" })).status).toBe(201);
    const config = [
      "root = true",
      "[*]",
      "indent_style = space",
      "indent_size = 2",
      "end_of_line = lf",
      "insert_final_newline = true",
      "[*.go]",
      "indent_style = tab",
      "[src/**.md]",
      "trim_trailing_whitespace = false",
      `[${"*a".repeat(30)}b]`,
      "charset = latin1",
      // A numeric range would expand to 100,000 alternatives for every request.
      "[{0..99999}]",
      "charset = utf-16be",
      "",
    ].join("\n");
    expect((await as(owner, "POST", "/contents/.editorconfig", { content: b64(config) })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it("answers the properties of the sections that match, the last winning", async () => {
    const ts = await as(null, "GET", "/editorconfig/a.ts");
    expect(ts.status).toBe(200);
    expect(ts.json).toEqual({
      indent_style: "space",
      indent_size: "2",
      end_of_line: "lf",
      tab_width: 2,
      insert_final_newline: true,
    });
    const go = await as(null, "GET", "/editorconfig/cmd/main.go");
    expect(go.json).toMatchObject({ indent_style: "tab", indent_size: "2" });
    const md = await as(null, "GET", "/editorconfig/src/docs/readme.md");
    expect(md.json).toMatchObject({ trim_trailing_whitespace: false });
  });

  it("matches a section glob that would make a regular expression backtrack for ever, in linear time", async () => {
    const res = await as(null, "GET", `/editorconfig/${"a".repeat(200)}`);
    expect(res.status).toBe(200);
    expect(res.json.charset).toBeUndefined();
    const hit = await as(null, "GET", `/editorconfig/deep/${"a".repeat(40)}b`);
    expect(hit.json.charset).toBe("latin1");
    const ranged = await as(null, "GET", "/editorconfig/5");
    expect(ranged.status).toBe(200);
    expect(ranged.json.charset).toBeUndefined();
  });

  it("answers 404 for a ref without a root .editorconfig and for an unknown ref", async () => {
    expect((await as(null, "GET", "/editorconfig/a.ts?ref=plain")).status).toBe(404);
    expect((await as(null, "GET", "/editorconfig/a.ts?ref=nope")).status).toBe(404);
  });
});
