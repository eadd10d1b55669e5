import { describe, expect, it } from "vitest";
import { alignColumn } from "./align-columns.js";

describe("alignColumn", () => {
  it("is the identity on unchanged lines", () => {
    expect(alignColumn("  throw new Error(x);", "  throw new Error(x);", 8)).toBe(8);
  });

  it("moves columns past removed type annotations", () => {
    const source = "  const value: number = options.depth * 2;";
    const compiled = "  const value = options.depth * 2;";
    expect(alignColumn(source, compiled, compiled.indexOf("options"))).toBe(source.indexOf("options"));
    expect(alignColumn(source, compiled, compiled.indexOf("depth") + 2)).toBe(source.indexOf("depth") + 2);
  });

  it("points calls of imported functions at the function name", () => {
    const source = "  inner(value, options.label);";
    const viaCall = "  _helperts.inner.call(void 0, value, options.label);";
    expect(alignColumn(source, viaCall, viaCall.indexOf("call"))).toBe(2);
    const viaComma = "  (0, _helperts.inner)(value, options.label);";
    expect(alignColumn(source, viaComma, viaComma.indexOf(")(") + 1)).toBe(2);
    expect(alignColumn(source, viaComma, viaComma.indexOf("_helperts"))).toBe(2);
  });
});
