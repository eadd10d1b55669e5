import type { DiffLine } from "@kiln/service";
import { describe, expect, it } from "vitest";
import { splitRows } from "./split-rows.js";

const ctx = (n: number): DiffLine => ({ kind: "context", text: `c${n}`, oldLine: n, newLine: n });
const del = (n: number): DiffLine => ({ kind: "del", text: `d${n}`, oldLine: n });
const add = (n: number): DiffLine => ({ kind: "add", text: `a${n}`, newLine: n });

describe("splitRows", () => {
  it("puts removed lines beside the added ones that follow, context on both sides", () => {
    const rows = splitRows([ctx(1), del(2), del(3), add(2), ctx(4), add(5)]);
    expect(rows.map((r) => [r.left?.text ?? "", r.right?.text ?? ""])).toEqual([
      ["c1", "c1"],
      ["d2", "a2"],
      ["d3", ""],
      ["c4", "c4"],
      ["", "a5"],
    ]);
  });
});
