import { InvalidArgumentError, isZeroTime, MAX_STORED_TIME_MS, MIN_STORED_TIME_MS } from "@kiln/domain";

/**
 * Forgejo's title rule (util.SplitStringAtByteN): at most 255 bytes; a longer title keeps its
 * first bytes up to a character boundary, 252 at most, and ends with "…"; then spaces are trimmed.
 */
export function limitTitle(title: string): string {
  const encoder = new TextEncoder();
  if (encoder.encode(title).length <= 255) return title.trim();
  let bytes = 0;
  let end = 0;
  for (const char of title) {
    const size = encoder.encode(char).length;
    if (bytes + size > 252) break;
    bytes += size;
    end += char.length;
  }
  return `${title.slice(0, end)}…`.trim();
}

/** The users an issue text @-mentions (Forgejo's mention pattern), without repeats. */
export function mentionedNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/(?:\s|^|\(|\[)@([0-9a-zA-Z_-]+(?:\.[0-9a-zA-Z_-]+)*)/g)) {
    names.add(match[1]!.toLowerCase());
  }
  return [...names].slice(0, 100);
}

/**
 * A due date as the API's edit gives it: 23:59:59 of its calendar day in the offset the
 * timestamp was written in ("dates handled in the timezone given"). Go's zero time (and any
 * year-1 date) removes it; a day whose end lies past what Kiln stores (9999-12-31T23:59:59Z) is 422.
 */
export function endOfDay(iso: string): Date | null {
  if (isZeroTime(iso.trim())) return null;
  const match = /^(\d{4})-(\d\d)-(\d\d)T[^Z+-]*(?:Z|([+-])(\d\d):?(\d\d))?$/i.exec(iso.trim());
  if (!match) throw new InvalidArgumentError(`invalid due_date: ${iso}`);
  const [, year, month, day, sign, hours, minutes] = match as unknown as [
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string | undefined,
  ];
  if (Number(year) <= 1) return null;
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) : 0;
  const end = new Date(0);
  end.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  end.setUTCHours(23, 59, 59, 0);
  const ms = end.getTime() - offset * 60_000;
  if (ms > MAX_STORED_TIME_MS || ms < MIN_STORED_TIME_MS)
    throw new InvalidArgumentError(
      `[DueDate]: the end of the day of ${iso} is outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z`,
    );
  return new Date(ms);
}
