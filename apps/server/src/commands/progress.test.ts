import { describe, expect, it } from "vitest";
import { bar, progressRenderer } from "./progress.js";

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 60, write: (s: string) => writes.push(s) } };
}

describe("progress rendering", () => {
  it("prints a line at the start, then at most every interval, and always at the end, off a terminal", () => {
    let clock = 0;
    const { writes, stream } = fakeStream(false);
    const render = progressRenderer(stream, { now: () => clock, intervalMs: 2000 });
    render({ label: "Recounting", done: 0, total: 1000 });
    clock = 500;
    render({ label: "Recounting", done: 100, total: 1000 }); // too soon
    clock = 2100;
    render({ label: "Recounting", done: 450, total: 1000 });
    clock = 2200;
    render({ label: "Recounting", done: 1000, total: 1000 }); // the end is always shown
    render({ label: "Recounting", done: 1000, total: 1000 }); // once
    expect(writes).toEqual([
      "Recounting: 0/1000 (0%)\n",
      "Recounting: 450/1000 (45%)\n",
      "Recounting: 1000/1000 (100%)\n",
    ]);
  });

  it("shows the start and the end of each task when one follows another", () => {
    const { writes, stream } = fakeStream(false);
    const render = progressRenderer(stream, { now: () => 0, intervalMs: 2000 });
    render({ label: "Measuring", done: 0, total: 3 });
    render({ label: "Measuring", done: 3, total: 3 });
    render({ label: "Recounting", done: 0, total: 2 });
    render({ label: "Recounting", done: 2, total: 2 });
    expect(writes).toEqual([
      "Measuring: 0/3 (0%)\n",
      "Measuring: 3/3 (100%)\n",
      "Recounting: 0/2 (0%)\n",
      "Recounting: 2/2 (100%)\n",
    ]);
  });

  it("redraws one line with a bar on a terminal and ends it with a newline", () => {
    let clock = 0;
    const { writes, stream } = fakeStream(true);
    const render = progressRenderer(stream, { now: () => clock });
    render({ label: "Recounting", done: 0, total: 4 });
    clock = 1000;
    render({ label: "Recounting", done: 2, total: 4 });
    render({ label: "Recounting", done: 4, total: 4 });
    expect(writes).toHaveLength(3);
    expect(writes.every((w) => w.startsWith("\r\x1b[2K"))).toBe(true);
    expect(writes[1]).toContain(" 50% 2/4");
    expect(writes[2]!.endsWith("100% 4/4\n")).toBe(true);
  });

  it("fits the bar to the width and fills it in proportion", () => {
    expect(bar({ label: "x", done: 1, total: 4 }, 40)).toBe(`x [${"#".repeat(7)}${".".repeat(19)}]  25% 1/4`);
    expect(bar({ label: "x", done: 0, total: 0 }, 80)).toContain("100% 0/0");
  });
});
