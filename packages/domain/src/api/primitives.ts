import * as v from "valibot";

// biome-ignore lint/suspicious/noExplicitAny: wraps schemas of any shape
type AnySchema = v.GenericSchema<any, any>;

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

/**
 * An optional field of a request body in which JSON `null` counts as absent. Forgejo decodes
 * bodies with Go's encoding/json, where `null` leaves a field at its zero value (a nil pointer or
 * slice, an empty string, false, 0), and clients built on its Go SDK (`tea` among them) send every
 * field they leave unset as `null`. The field's value is `undefined` for both.
 */
export const optionalField = <S extends AnySchema>(schema: S) =>
  v.optional(
    v.pipe(
      v.nullable(schema),
      v.transform((value: v.InferOutput<S> | null): v.InferOutput<S> | undefined => value ?? undefined),
    ),
  );

/** Go's zero `time.Time` (0001-01-01T00:00:00Z) in epoch milliseconds: what Go clients send for a time left unset. */
export const ZERO_TIME_MS = -62_135_596_800_000;

/** The earliest time Kiln stores: 1970-01-01T00:00:00Z. */
export const MIN_STORED_TIME_MS = 0;
/**
 * The latest time Kiln stores: 9999-12-31T23:59:59Z. Later years have no RFC 3339 form (and
 * PGlite refuses them); years before 100 do not survive PGlite's date parsing.
 */
export const MAX_STORED_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 time as Go's time parser reads it (`2006-01-02T15:04:05Z07:00`, fractions of a
 * second to nanoseconds, a real calendar date: no February 30th, no second 60), in epoch
 * milliseconds; undefined when the text is not one. Any year from 0000 to 9999 parses.
 */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // Day overflow (February 30th) shows as another month.
  if (date.getUTCMonth() !== month - 1) return undefined;
  date.setUTCHours(hour, minute, second, Number((m[7] ?? "").padEnd(3, "0").slice(0, 3)));
  let offset = 0;
  if (!m[8]) {
    const hours = Number(m[10]);
    const minutes = Number(m[11]);
    if (hours > 23 || minutes > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (hours * 60 + minutes);
  }
  return date.getTime() - offset * 60_000;
}

/** Whether an RFC 3339 time is Go's zero time (the instant 0001-01-01T00:00:00Z, written in any offset). */
export function isZeroTime(text: string): boolean {
  return parseRfc3339(text) === ZERO_TIME_MS;
}

/** The instant of a time a request gave (checked by {@link timeInput}), Go's zero time included. */
export function timeOf(text: string): Date {
  const ms = parseRfc3339(text);
  if (ms === undefined) throw new RangeError(`not an RFC 3339 time: ${text}`);
  return new Date(ms);
}

/** The Date of a time a request gave (checked by {@link timeInput}); undefined for Go's zero time (not given). */
export function inputTime(text: string): Date | undefined {
  const date = timeOf(text);
  return date.getTime() === ZERO_TIME_MS ? undefined : date;
}

const STORED_RANGE = "1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z";

/**
 * A time in a request body (`format: date-time`): RFC 3339 as Go reads it ({@link parseRfc3339}),
 * either within the range Kiln stores and answers in RFC 3339 (1970 to 9999, whatever the offset
 * makes of it) or Go's zero time, which Forgejo treats as "not given" (`IsZero`) and Go clients
 * send for an unset time; {@link inputTime} reads it.
 */
export const timeInput = () =>
  v.pipe(
    v.string(),
    v.check(
      (text) => parseRfc3339(text) !== undefined,
      "must be an RFC 3339 time of a real date, such as 2006-01-02T15:04:05Z or 2006-01-02T15:04:05+07:00",
    ),
    v.check((text) => {
      const ms = parseRfc3339(text) as number;
      return ms === ZERO_TIME_MS || (ms >= MIN_STORED_TIME_MS && ms <= MAX_STORED_TIME_MS);
    }, `must be a time from ${STORED_RANGE} (or Go's zero time, 0001-01-01T00:00:00Z, for none)`),
    v.metadata({ format: "date-time" }),
  );

/** Formats a date as Forgejo does: RFC 3339, second precision, UTC. */
export function formatTime(date: Date): string {
  // toISOString is always `YYYY-MM-DDTHH:mm:ss.sssZ` for years 0–9999; cut the milliseconds.
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, "Z");
}
