import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { jsSha256Hex, sha256Hex } from "./hash.js";

const reference = (input: string | Uint8Array) => createHash("sha256").update(input).digest("hex");

describe("sha256Hex", () => {
  it("gives node:crypto's digest for every length around the block and padding boundaries", () => {
    const bytes = new Uint8Array(300).map((_, i) => (i * 131 + 7) & 0xff);
    for (let length = 0; length <= bytes.length; length++) {
      const slice = bytes.subarray(0, length);
      expect(jsSha256Hex(slice)).toBe(reference(slice));
    }
  });

  it("hashes strings as UTF-8, lone surrogates as U+FFFD, as node:crypto does", () => {
    for (const text of [
      "",
      "abc",
      "héllo wörld",
      "日本語のテキスト",
      "emoji 🎉 and more",
      "lone \ud800 here",
      "\udfff",
    ]) {
      expect(sha256Hex(text)).toBe(reference(text));
    }
  });

  it("agrees with node:crypto on both sides of the size where it hands over to node:crypto", () => {
    for (const length of [16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 100_000]) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 17) & 0xff);
      expect(sha256Hex(bytes)).toBe(reference(bytes));
      expect(jsSha256Hex(bytes)).toBe(reference(bytes));
    }
  });
});
