import { InvalidArgumentError } from "@kiln/domain";
import { parseGoDuration } from "../cron/schedule.js";

/** Go's largest Duration (2^63-1 ns) in whole milliseconds: time.ParseDuration overflows beyond it. */
export const MAX_INTERVAL_MS = 9_223_372_036_854;

/**
 * A Go duration (`8h`, `10m0s`, `0`) in milliseconds, as Go's time.ParseDuration reads it;
 * undefined when it is not one, including one past Go's maximum (Go reports it as invalid too).
 */
export function parseInterval(text: string): number | undefined {
  const t = text.trim();
  if (/^[+-]?0$/.test(t)) return 0;
  const ms = parseGoDuration(t.startsWith("+") ? t.slice(1) : t);
  if (ms === undefined || !Number.isSafeInteger(ms) || ms > MAX_INTERVAL_MS) return undefined;
  return ms;
}

/** Milliseconds as Go's Duration.String writes them: `8h0m0s`, `10m0s`, `1m30s`, `1.5s`, `500ms`, `0s`. */
export function formatInterval(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = `${(ms % 60_000) / 1000}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}

/**
 * A mirror interval as Forgejo accepts it: a Go duration that is 0 (no periodic sync) or at
 * least `[mirror] MIN_INTERVAL`. Anything else is an invalid argument with Forgejo's words.
 */
export function checkInterval(text: string, minInterval: number): number {
  const ms = parseInterval(text);
  if (ms === undefined) throw new InvalidArgumentError(`time: invalid duration "${text}"`);
  if (ms !== 0 && ms < minInterval) {
    throw new InvalidArgumentError(
      `MirrorInterval hit the minimum interval: ${formatInterval(ms)} is less than ${formatInterval(minInterval)}`,
    );
  }
  return ms;
}
