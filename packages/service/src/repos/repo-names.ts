import { InvalidArgumentError } from "@kiln/domain";

const RESERVED = new Set([".", "..", "-"]);
const RESERVED_SUFFIXES = [".git", ".rss", ".atom", ".wiki"];

/** Forgejo's repository name rules (AlphaDashDot, at most 100 characters, a few reserved names); 422 otherwise. */
export function checkRepoName(name: string): void {
  if (name.length === 0 || name.length > 100 || !/^[\w.-]+$/.test(name)) {
    throw new InvalidArgumentError(
      `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`,
    );
  }
  if (RESERVED.has(name)) throw new InvalidArgumentError(`name is reserved [name: ${name}]`);
  const suffix = RESERVED_SUFFIXES.find((s) => name.toLowerCase().endsWith(s));
  if (suffix) throw new InvalidArgumentError(`name pattern is not allowed [pattern: *${suffix}]`);
}
