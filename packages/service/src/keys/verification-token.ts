import { createHash } from "node:crypto";
import type { User } from "@kiln/domain";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** Go's time.RFC1123Z layout (`Mon, 02 Jan 2006 15:04:05 -0700`), in UTC. */
function rfc1123z(date: Date): string {
  return `${DAYS[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/**
 * The token a user signs to prove they hold a GPG key (Forgejo's VerificationToken): a SHA-256 of
 * the current minute shifted by `minutes`, the account's creation time, name, e-mail and id. The
 * token of the next minute (`1`) is handed out; the current one (`0`) is still accepted, so a
 * token stays valid for at least a minute.
 */
export function verificationToken(user: User, minutes: number, now = new Date()): string {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + minutes * 60_000);
  const text = `${rfc1123z(minute)}:${rfc1123z(user.createdAt)}:${user.name}:${user.email}:${user.id}`;
  return createHash("sha256").update(text).digest("hex");
}
