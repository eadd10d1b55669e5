import * as v from "valibot";

/**
 * Schemas for query-string and path values, which arrive as strings. Each carries the type the
 * API description should show in `metadata.swagger`, so one definition serves validation and docs.
 */
export const qs = {
  /** A free string. */
  string: (description?: string) =>
    v.pipe(v.string(), v.metadata({ swagger: { type: "string" }, ...(description ? { description } : {}) })),
  /**
   * An integer written in decimal, within `[min, max]` (default: the safe-integer range, which is
   * well inside PostgreSQL's bigint); anything else is 422 in the query and 404 in the path.
   */
  int: (description?: string, range: { readonly min?: number; readonly max?: number } = {}) => {
    const min = range.min ?? Number.MIN_SAFE_INTEGER;
    const max = range.max ?? Number.MAX_SAFE_INTEGER;
    return v.pipe(
      v.string(),
      v.regex(/^-?\d+$/, "must be an integer"),
      v.transform(Number),
      v.check(
        (n) => Number.isSafeInteger(n) && n >= min && n <= max,
        `must be an integer from ${min} to ${max}`,
      ),
      v.metadata({
        swagger: {
          type: "integer",
          format: "int64",
          ...(range.min !== undefined ? { minimum: range.min } : {}),
          ...(range.max !== undefined ? { maximum: range.max } : {}),
        },
        ...(description ? { description } : {}),
      }),
    );
  },
  /** `true`/`false` (also `1`/`0`, as Go's strconv.ParseBool). */
  bool: (description?: string) =>
    v.pipe(
      v.picklist(["true", "false", "1", "0", "TRUE", "FALSE", "True", "False", "t", "f"]),
      v.transform((s) => ["true", "1", "TRUE", "True", "t"].includes(s)),
      v.metadata({ swagger: { type: "boolean" }, ...(description ? { description } : {}) }),
    ),
  /**
   * Integers given as a repeated parameter (`?labels=1&labels=2`, Swagger's `multi`) or, more
   * leniently than Forgejo, comma-separated; at most 100, each a safe integer (else 422).
   */
  intList: (description?: string) =>
    v.pipe(
      v.union([v.string(), v.array(v.string())]),
      v.transform((given) => (Array.isArray(given) ? given : [given]).flatMap((item) => item.split(","))),
      v.maxLength(100, "at most 100 values"),
      v.check((items) => items.every((item) => /^-?\d+$/.test(item.trim())), "must be integers"),
      v.transform((items) => items.map((item) => Number(item.trim()))),
      v.check((items) => items.every(Number.isSafeInteger), "must be integers between -(2^53-1) and 2^53-1"),
      v.metadata({
        swagger: { type: "array", items: { type: "integer", format: "int64" }, collectionFormat: "multi" },
        ...(description ? { description } : {}),
      }),
    ),
  /** One of a fixed set of strings. */
  enum: <const T extends readonly [string, ...string[]]>(values: T, description?: string) =>
    v.pipe(
      v.picklist(values),
      v.metadata({ swagger: { type: "string", enum: values }, ...(description ? { description } : {}) }),
    ),
};

/** The `page` and `limit` query parameters every list takes (parsed leniently, as Forgejo does). */
export const pageQuery = {
  page: v.optional(
    v.pipe(
      v.string(),
      v.metadata({ swagger: { type: "integer" }, description: "page number of results to return (1-based)" }),
    ),
  ),
  limit: v.optional(
    v.pipe(v.string(), v.metadata({ swagger: { type: "integer" }, description: "page size of results" })),
  ),
};
