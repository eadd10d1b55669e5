/** Hostile inputs for the fuzz test, drawn from a seeded generator so every run sends the same. */

/** A small seeded PRNG (mulberry32): deterministic, no dependency. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)] as T;
    },
  };
}
export type Rng = ReturnType<typeof prng>;

const LONG = "a".repeat(10_000);

/** Path segments, already percent-encoded as they go on the wire. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  "99999999999999999999",
  "9223372036854775808",
  "9223372036854775807",
  "18446744073709551616",
  "-1",
  "0",
  "1e308",
  "0x10",
  "NaN",
  "%00",
  "a%00b",
  "main%00",
  "..%2F..%2Fetc%2Fpasswd",
  "..",
  ".",
  "./main",
  "%2E%2E",
  "main%2F.%2Fx",
  LONG,
  encodeURIComponent("ünïcødé-😀-名前"),
  "%F0%9F%98%80",
  "%C0%AF",
  "%ZZ",
  "%",
  "%20",
  "main%0Aevil",
  "-",
  "_",
  encodeURIComponent("'; drop table users; --"),
];

/** Rest-of-path values (branch names, file paths), already encoded, slashes kept. */
export const HOSTILE_REST: readonly string[] = [
  ...HOSTILE_SEGMENTS,
  "./main",
  "main/./x",
  "a/../../b",
  "../../../../etc/passwd",
  "refs/heads/../../x",
  "a//b",
  "x/%00/y",
  ".git/config",
  "a/.",
];

/** Query values, raw (they are encoded with URLSearchParams). */
export const HOSTILE_QUERY: readonly string[] = [
  "99999999999999999999",
  "9223372036854775808",
  "-9223372036854775809",
  "-1",
  "0",
  "1.5",
  "1e400",
  "abc",
  "\u0000",
  "a\u0000b",
  "",
  LONG,
  "ünïcødé-😀",
  "true",
  "[]",
  "{}",
];

/** Strings for string fields. */
export const HOSTILE_STRINGS: readonly string[] = [
  "\u0000",
  "a\u0000b",
  "x".repeat(100_000),
  "../../etc/passwd",
  "./main",
  "ünïcødé-😀",
  "",
  " ",
  "\ud800",
  "99999999999999999999",
  "%00",
  "main\nevil",
];

/** Values of the wrong type for any field. */
export const WRONG_TYPES: readonly unknown[] = [
  null,
  0,
  -1,
  1e308,
  2 ** 63,
  -(2 ** 63),
  1e20,
  1.5,
  true,
  "",
  "\u0000",
  [],
  [[[[]]]],
  [null],
  {},
  { a: { b: { c: [] } } },
  [1, "a", null, {}],
];

/** A JSON value nested `depth` levels deep. */
export function deeplyNested(depth: number, kind: "object" | "array"): string {
  return kind === "object"
    ? `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`
    : `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

/** Replaces every string in a JSON value (recursively) by `replacement`. */
export function mapStrings(value: unknown, replacement: (s: string) => unknown): unknown {
  if (typeof value === "string") return replacement(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, replacement));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, replacement)]));
  return value;
}
