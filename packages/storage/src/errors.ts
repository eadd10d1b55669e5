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
