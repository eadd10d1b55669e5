import { describe, expect, it } from "vitest";
import { parseByteSize, tryParseByteSize } from "./byte-size.js";

describe("parseByteSize", () => {
  // Forgejo modules/setting/quota_test.go TestConfigQuotaDefaultTotal (v12.0.4+).
  it.each([
    ["0", 0],
    ["5000", 5000],
    ["12,345,678", 12_345_678],
    ["2k", 2000],
    ["2MiB", 2_097_152],
    ["3G", 3_000_000_000],
    ["3GiB", 3_221_225_472],
    ["9EB", 9_000_000_000_000_000_000],
    ["42EB", -1],
    ["-1", -1],
    ["-42", -1],
    ["-1MiB", -1],
    ["hello", -1],
    ["unlimited", -1],
  ])("parses %j as %d, as Forgejo does", (text, expected) => {
    expect(parseByteSize(text)).toBe(expected);
  });

  it.each([
    ["1", 1],
    ["1b", 1],
    ["1 KB", 1000],
    ["1kib", 1024],
    ["1Ki", 1024],
    ["1m", 1_000_000],
    ["1MB", 1_000_000],
    ["1mi", 1_048_576],
    ["1T", 1e12],
    ["1TiB", 2 ** 40],
    ["1P", 1e15],
    ["1PiB", 2 ** 50],
    ["1E", 1e18],
    ["7EiB", 7 * 2 ** 60],
    ["1.5k", 1500],
    ["2.01k", 2010], // Forgejo: 2009 (float64 truncation)
    ["4.1M", 4_100_000], // Forgejo: 4099999
    ["1.", 1],
    [".5k", 500],
    ["0.0001k", 0],
    ["1,000.5", 1000],
    ["  2k  ", 2000],
  ])("accepts go-humanize's units and decimals: %j is %d", (text, expected) => {
    expect(parseByteSize(text)).toBe(expected);
  });

  it.each(["", "   "])("treats an empty value (%j) as the default, unlimited", (text) => {
    expect(parseByteSize(text)).toBe(-1);
    expect(tryParseByteSize(text)).toBe(-1);
  });

  it.each(["k", ".", "1.2.3", "1e5", "1 kilobyte", "١٢", "0x10", "2 k b", "Infinity", "NaN"])(
    "treats %j as garbage: unlimited",
    (text) => {
      expect(parseByteSize(text)).toBe(-1);
      expect(tryParseByteSize(text)).toBeUndefined();
    },
  );

  it("accepts up to 2^63 - 1 bytes and rejects more", () => {
    expect(tryParseByteSize("9223372036854775807")).toBe(2 ** 63);
    expect(tryParseByteSize("9223372036854775808")).toBeUndefined();
    expect(tryParseByteSize("8EiB")).toBeUndefined();
    expect(tryParseByteSize("9.3EB")).toBeUndefined();
  });

  it("rounds values above Number.MAX_SAFE_INTEGER to the nearest double", () => {
    expect(parseByteSize("9007199254740993")).toBe(2 ** 53);
    expect(parseByteSize("12345678901234567")).toBe(12_345_678_901_234_568);
  });

  it("tells garbage apart from an explicit -1", () => {
    expect(tryParseByteSize("-1")).toBe(-1);
    expect(tryParseByteSize("-42")).toBeUndefined();
  });
});
