import { BadRequestError } from "@kiln/domain";

/** Forgejo's secret name rule (models/secret): letters, digits and `_`, not starting with a digit. */
const NAME = /^[A-Z_][A-Z0-9_]*$/i;
/** Names Forgejo reserves for itself (and a leading digit, which NAME already refuses). */
const FORBIDDEN_PREFIX = /^(FORGEJO_|GITEA_|GITHUB_|[0-9])/i;
/** Variables may not start with `CI` either (services/actions/variables.go). */
const FORBIDDEN_VARIABLE_PREFIX = /^CI/i;

/** The longest name and value Kiln keeps (Forgejo's web forms: MaxSize(255) and MaxSize(65535)). */
export const MAX_ACTION_NAME = 255;
export const MAX_ACTION_VALUE = 65_535;

/** The stored (upper-cased) name of a secret, or Forgejo's 400 `invalid secret name`. */
export function secretName(name: string): string {
  if (name.length > MAX_ACTION_NAME || !NAME.test(name) || FORBIDDEN_PREFIX.test(name))
    throw new BadRequestError("invalid secret name");
  return name.toUpperCase();
}

/** The stored (upper-cased) name of a variable: a valid secret name not starting with `CI`. */
export function variableName(name: string): string {
  const upper = secretName(name);
  if (FORBIDDEN_VARIABLE_PREFIX.test(upper)) throw new BadRequestError("env name cannot be ci");
  return upper;
}

/** Forgejo's ReserveLineBreakForTextarea: `\r\n` becomes `\n`. */
export function normalizeValue(value: string): string {
  return value.replace(/\r\n/g, "\n");
}
