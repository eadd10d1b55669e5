import { BadRequestError } from "@kiln/domain";

/**
 * Whether an error is PostgreSQL's unique_violation (23505), optionally on a given constraint.
 * Both `pg` and PGlite report the SQLSTATE in `code` and the constraint name in `constraint`.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code !== "23505") return false;
  if (constraint === undefined) return true;
  return e.constraint === constraint || (typeof e.message === "string" && e.message.includes(constraint));
}

/**
 * SQLSTATEs of text the database cannot hold: 22021 character_not_in_repertoire (a NUL byte, or
 * bytes that are not UTF-8) and 22P05 untranslatable_character. The text came from a request.
 */
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/**
 * The error to throw for `err`: a BadRequestError (the adapters answer 400) when a statement
 * failed because a value holds text the database cannot hold, such as a NUL byte in a query
 * parameter; `err` itself otherwise. Such a value can come from any request, so every statement's
 * failure passes through here rather than every caller checking its input for NUL.
 */
export function unstorableTextOr(err: unknown): unknown {
  if (typeof err !== "object" || err === null) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== "string" || !UNSTORABLE_TEXT.has(code)) return err;
  return new BadRequestError(
    "the request holds text that cannot be stored (a NUL byte, or bytes that are not UTF-8)",
  );
}
