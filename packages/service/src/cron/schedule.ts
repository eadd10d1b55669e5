import { InvalidArgumentError } from "@kiln/domain";

/** When a task runs next: a parsed `SCHEDULE` as Forgejo (gocron over robfig/cron) reads it. */
export interface Schedule {
  /** The first run strictly after `from`. */
  next(from: Date): Date;
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration (`1h30m`, `10m`, `90s`) in milliseconds; undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  const t = text.trim();
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(t)) return undefined;
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g))
    total += Number(n) * (DURATION_UNITS[unit as string] ?? 0);
  return Math.round(total);
}

const DESCRIPTORS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/** One field of a cron expression: the values it allows, and whether it was `*` (or `?`). */
interface Field {
  readonly allowed: ReadonlySet<number>;
  readonly any: boolean;
}

function parseField(
  text: string,
  min: number,
  max: number,
  names: readonly string[] = [],
  nameBase = 0,
): Field {
  const value = (token: string): number => {
    const named = names.indexOf(token.toUpperCase());
    const n = named >= 0 ? named + nameBase : /^\d+$/.test(token) ? Number(token) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${token} is not in ${min}-${max}`);
    return n;
  };
  const allowed = new Set<number>();
  for (const part of text.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`bad step in ${part}`);
    let lo: number;
    let hi: number;
    if (range === "*" || range === "?") {
      lo = min;
      hi = max;
    } else if (range.includes("-")) {
      const [a = "", b = ""] = range.split("-");
      lo = value(a);
      hi = value(b);
    } else {
      lo = value(range);
      hi = stepText === undefined ? lo : max;
    }
    if (lo > hi) throw new Error(`empty range ${range}`);
    for (let v = lo; v <= hi; v += step) allowed.add(v);
  }
  return { allowed, any: text === "*" || text === "?" };
}

/**
 * Parses a task's `SCHEDULE`: `@every <Go duration>` (at least a second), a descriptor
 * (`@hourly`, `@daily`/`@midnight`, `@weekly`, `@monthly`, `@yearly`/`@annually`), or a cron
 * expression of five fields (minute hour day-of-month month day-of-week) or six (seconds first),
 * with `*`, lists, ranges, steps and month/day names, in the server's local time. A
 * day-of-month and a day-of-week that are both restricted match either, as in cron.
 */
export function parseSchedule(text: string): Schedule {
  const spec = text.trim();
  if (spec.startsWith("@every ")) {
    const ms = parseGoDuration(spec.slice("@every ".length));
    if (ms === undefined || ms < 1000)
      throw new InvalidArgumentError(`invalid schedule "${text}": @every needs a duration of at least 1s`);
    return { next: (from) => new Date(from.getTime() + ms) };
  }
  const expanded = DESCRIPTORS[spec.toLowerCase()] ?? spec;
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6)
    throw new InvalidArgumentError(
      `invalid schedule "${text}": expected @every <duration>, a descriptor or 5 or 6 cron fields`,
    );
  const withSeconds = parts.length === 6 ? parts : ["0", ...parts];
  try {
    const [sec, min, hour, dom, month, dow] = withSeconds as [string, string, string, string, string, string];
    return cronSchedule({
      second: parseField(sec, 0, 59),
      minute: parseField(min, 0, 59),
      hour: parseField(hour, 0, 23),
      dom: parseField(dom, 1, 31),
      month: parseField(month, 1, 12, MONTHS, 1),
      dow: parseField(dow.replace(/\b7\b/g, "0"), 0, 6, DAYS, 0),
    });
  } catch (error) {
    throw new InvalidArgumentError(`invalid schedule "${text}": ${(error as Error).message}`);
  }
}

function cronSchedule(f: Record<"second" | "minute" | "hour" | "dom" | "month" | "dow", Field>): Schedule {
  const dayMatches = (t: Date) => {
    const dom = f.dom.allowed.has(t.getDate());
    const dow = f.dow.allowed.has(t.getDay());
    if (f.dom.any || f.dow.any) return dom && dow;
    return dom || dow;
  };
  return {
    next(from) {
      const t = new Date(from.getTime());
      t.setMilliseconds(0);
      t.setSeconds(t.getSeconds() + 1);
      // Five years of days bound the search: a schedule that never fires (31 February) ends it.
      const limit = from.getTime() + 5 * 366 * 24 * 3_600_000;
      while (t.getTime() <= limit) {
        if (!f.month.allowed.has(t.getMonth() + 1)) {
          t.setMonth(t.getMonth() + 1, 1);
          t.setHours(0, 0, 0);
          continue;
        }
        if (!dayMatches(t)) {
          t.setDate(t.getDate() + 1);
          t.setHours(0, 0, 0);
          continue;
        }
        if (!f.hour.allowed.has(t.getHours())) {
          t.setHours(t.getHours() + 1, 0, 0);
          continue;
        }
        if (!f.minute.allowed.has(t.getMinutes())) {
          t.setMinutes(t.getMinutes() + 1, 0);
          continue;
        }
        if (!f.second.allowed.has(t.getSeconds())) {
          t.setSeconds(t.getSeconds() + 1);
          continue;
        }
        return t;
      }
      return new Date(8.64e15);
    },
  };
}
