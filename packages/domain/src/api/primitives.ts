import * as v from "valibot";

/** A 64-bit integer field (JSON number); `format: int64` in the API description. */
/** An integer field; beyond JavaScript's safe integers (±2^53) it cannot be stored exactly, so it is 422. */
export const int64 = () =>
  v.pipe(
    v.number(),
    v.safeInteger("must be an integer between -(2^53-1) and 2^53-1"),
    v.metadata({ format: "int64" }),
  );

/** An RFC 3339 timestamp string (`format: date-time`). */
export const dateTime = () => v.pipe(v.string(), v.isoTimestamp());

/** An e-mail address string (`format: email`). */
export const emailString = () => v.pipe(v.string(), v.email());

/** Formats a date as Forgejo does: RFC 3339, second precision, UTC. */
export function formatTime(date: Date): string {
  // toISOString is always `YYYY-MM-DDTHH:mm:ss.sssZ` for years 0–9999; cut the milliseconds.
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, "Z");
}
