import * as v from "valibot";

/** A 64-bit integer field (JSON number); `format: int64` in the API description. */
export const int64 = () => v.pipe(v.number(), v.integer(), v.metadata({ format: "int64" }));

/** An RFC 3339 timestamp string (`format: date-time`). */
export const dateTime = () => v.pipe(v.string(), v.isoTimestamp());

/** An e-mail address string (`format: email`). */
export const emailString = () => v.pipe(v.string(), v.email());

/** Formats a date as Forgejo does: RFC 3339, second precision, UTC. */
export function formatTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
