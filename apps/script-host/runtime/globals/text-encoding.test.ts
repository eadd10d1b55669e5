import { describe, expect, it } from "vitest";
import { KilnTextDecoder, KilnTextEncoder } from "./text-encoding.js";

describe("KilnTextEncoder / KilnTextDecoder", () => {
  const samples = ["", "ascii", "héllo", "☃ snow", "😀 emoji", "mixed é☃😀 end"];

  it("encode exactly as the platform's UTF-8 encoder does and round-trip", () => {
    for (const text of samples) {
      const bytes = new KilnTextEncoder().encode(text);
      expect([...bytes]).toEqual([...new TextEncoder().encode(text)]);
      expect(new KilnTextDecoder().decode(bytes)).toBe(text);
    }
  });

  it("replaces lone surrogates and invalid bytes with U+FFFD like the platform", () => {
    expect([...new KilnTextEncoder().encode("a\ud800b")]).toEqual([...new TextEncoder().encode("a\ud800b")]);
    for (const bytes of [
      [0x61, 0xff, 0x62],
      [0xe2, 0x98],
      [0xc0, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x9f, 0x98],
    ]) {
      const input = new Uint8Array(bytes);
      expect(new KilnTextDecoder().decode(input)).toBe(new TextDecoder().decode(input));
    }
  });

  it("throws on invalid input when fatal, strips a BOM unless told not to, and accepts only utf-8", () => {
    expect(() => new KilnTextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff]))).toThrow(
      TypeError,
    );
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
    expect(new KilnTextDecoder().decode(bom)).toBe("a");
    expect(new KilnTextDecoder("utf8", { ignoreBOM: true }).decode(bom)).toBe("\ufeffa");
    expect(() => new KilnTextDecoder("latin1")).toThrow(RangeError);
  });
});
