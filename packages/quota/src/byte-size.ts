// `[quota.default] TOTAL` parsing with Forgejo's semantics (setting.mustBytes over go-humanize's
// ParseBytes): a decimal number with optional thousands commas and an optional unit; garbage,
// negatives and anything above int64 mean unlimited (-1).
//
// Precision: the value is computed exactly with bigints (Forgejo goes through a float64, which
// can be one byte low for fractional inputs such as "4.1M"), then returned as a number. Results
// above Number.MAX_SAFE_INTEGER (about 8 PiB) are rounded to the nearest double; that rounding
// never changes `used < limit` for a usage that is a safe integer, which the engine requires.

const UNIT_FACTORS: ReadonlyMap<string, bigint> = new Map(
  ["", "k", "m", "g", "t", "p", "e"].flatMap((prefix, power): [string, bigint][] => {
    const si = 1000n ** BigInt(power);
    const iec = 1024n ** BigInt(power);
    if (prefix === "")
      return [
        ["", 1n],
        ["b", 1n],
      ];
    return [
      [prefix, si],
      [`${prefix}b`, si],
      [`${prefix}i`, iec],
      [`${prefix}ib`, iec],
    ];
  }),
);

const INT64_MAX = 2n ** 63n - 1n;

/**
 * Parses a byte size such as `2k` (2000), `2MiB` (2097152), `3G`, `12,345,678` or `9EB`.
 * Returns `-1` for `-1` and for an empty value (unlimited), and `undefined` for anything Forgejo
 * would not accept (garbage, other negatives, more than 2^63 - 1 bytes), so a caller can warn.
 */
export function tryParseByteSize(text: string): number | undefined {
  const value = text.trim();
  if (value === "" || value === "-1") return -1;
  const prefix = /^[\p{Nd}.,]*/u.exec(value)![0];
  const number = /^(\d*)(?:\.(\d*))?$/.exec(prefix.replaceAll(",", ""));
  const factor = UNIT_FACTORS.get(value.slice(prefix.length).trim().toLowerCase());
  if (number === null || factor === undefined) return undefined;
  const whole = number[1]!;
  const fraction = number[2] ?? "";
  if (whole === "" && fraction === "") return undefined;
  const scale = 10n ** BigInt(fraction.length);
  const bytes = (BigInt(`0${whole}${fraction}`) * factor) / scale;
  return bytes > INT64_MAX ? undefined : Number(bytes);
}

/**
 * Parses `[quota.default] TOTAL` exactly as Forgejo does: a byte size with an optional unit
 * (see {@link tryParseByteSize}); anything it cannot parse, any negative value and any overflow
 * is `-1`, unlimited.
 */
export function parseByteSize(text: string): number {
  return tryParseByteSize(text) ?? -1;
}
