/**
 * Forgejo's access token scopes: `all`, `public-only`, and `read:`/`write:` per category, where
 * write implies read. Stored normalized as a comma-separated string, as Forgejo stores it.
 */
export const SCOPE_CATEGORIES = [
  "activitypub",
  "admin",
  "misc",
  "notification",
  "organization",
  "package",
  "issue",
  "repository",
  "user",
] as const;

/** A scope category; a route group requires one or more of them. */
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];

/** The level a request needs: read for GET/HEAD, write for POST/PUT/PATCH/DELETE. */
export type ScopeLevel = "read" | "write";

/** A parsed scope set. */
export interface TokenScopes {
  readonly publicOnly: boolean;
  readonly levels: ReadonlyMap<ScopeCategory, ScopeLevel>;
}

/** Thrown for a scope name Forgejo does not know. */
export class InvalidScopeError extends Error {
  constructor(readonly scope: string) {
    super(`invalid access token scope: ${scope}`);
    this.name = "InvalidScopeError";
  }
}

const CATEGORY_SET: ReadonlySet<string> = new Set(SCOPE_CATEGORIES);

/** Parses scope names (or one comma-separated string), merging duplicates; throws InvalidScopeError. */
export function parseScopes(input: string | readonly string[]): TokenScopes {
  const names = typeof input === "string" ? input.split(",") : input.flatMap((s) => s.split(","));
  let publicOnly = false;
  const levels = new Map<ScopeCategory, ScopeLevel>();
  for (const raw of names) {
    const name = raw.trim();
    if (name === "" || name === "sudo") continue;
    if (name === "all") {
      for (const c of SCOPE_CATEGORIES) levels.set(c, "write");
      continue;
    }
    if (name === "public-only") {
      publicOnly = true;
      continue;
    }
    const [level, category] = name.split(":");
    if ((level !== "read" && level !== "write") || category === undefined || !CATEGORY_SET.has(category)) {
      throw new InvalidScopeError(name);
    }
    const c = category as ScopeCategory;
    if (level === "write" || levels.get(c) !== "write") levels.set(c, level);
  }
  return { publicOnly, levels };
}

/** Forgejo's normalized form: public-only first, then each category's highest level; every write → `all`. */
export function formatScopes(scopes: TokenScopes): string {
  const parts: string[] = [];
  if (scopes.publicOnly) parts.push("public-only");
  const allWrite = SCOPE_CATEGORIES.every((c) => scopes.levels.get(c) === "write");
  if (allWrite) {
    parts.push("all");
  } else {
    for (const c of SCOPE_CATEGORIES) {
      const level = scopes.levels.get(c);
      if (level) parts.push(`${level}:${c}`);
    }
  }
  return parts.join(",");
}

/** Whether the scopes grant `level` on every one of `categories` (Forgejo requires all of them). */
export function hasScopes(
  scopes: TokenScopes,
  level: ScopeLevel,
  categories: readonly ScopeCategory[],
): boolean {
  return categories.every((c) => {
    const granted = scopes.levels.get(c);
    return granted === "write" || (granted === "read" && level === "read");
  });
}

/** The scope names a request needs, e.g. `["read:admin"]`, for Forgejo's error message. */
export function requiredScopeNames(level: ScopeLevel, categories: readonly ScopeCategory[]): string[] {
  return categories.map((c) => `${level}:${c}`);
}
