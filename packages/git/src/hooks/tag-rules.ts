/**
 * Tag protection (Forgejo's models/git/protected_tag.go): a rule's name pattern is a glob where
 * `*` crosses `/` (gobwas/glob without separators), `?` is one character, `[abc]`, `[!a-z]` are
 * classes, `{a,b}` alternatives and `\` escapes. Matching is a linear-size table walk, never a
 * backtracking regular expression, so no pattern can make a push or request slow.
 */

type Token =
  | { readonly kind: "char"; readonly char: string }
  /** `?`; with a separator, not the separator. */
  | { readonly kind: "any"; readonly crosses: boolean }
  /** `*` (and `**`); with a separator, only `**` crosses it. */
  | { readonly kind: "star"; readonly crosses: boolean }
  | {
      readonly kind: "class";
      readonly negated: boolean;
      readonly ranges: readonly (readonly [string, string])[];
    };

/** At most this many alternatives a pattern's braces may expand to. */
const MAX_ALTERNATIVES = 64;

/** A pattern Kiln cannot use: unbalanced brackets or braces, or too many alternatives. */
export class TagPatternError extends Error {}

/** Whether a pattern is Forgejo's regular-expression form (`/…/`), which Kiln does not take. */
export function isRegexTagPattern(pattern: string): boolean {
  return pattern.length >= 2 && pattern.startsWith("/") && pattern.endsWith("/");
}

function expandBraces(pattern: string): string[] {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === "}") {
      depth--;
      if (depth < 0) throw new TagPatternError("unbalanced } in pattern");
      if (depth === 0) {
        const inner = pattern.slice(start + 1, i);
        const head = pattern.slice(0, start);
        const tail = pattern.slice(i + 1);
        const parts = splitTopLevel(inner);
        const out: string[] = [];
        for (const part of parts) {
          for (const expanded of expandBraces(head + part + tail)) {
            out.push(expanded);
            if (out.length > MAX_ALTERNATIVES) throw new TagPatternError("too many alternatives in pattern");
          }
        }
        return out;
      }
    }
  }
  if (depth !== 0) throw new TagPatternError("unbalanced { in pattern");
  return [pattern];
}

function splitTopLevel(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === "\\") i++;
    else if (ch === "{") depth++;
    else if (ch === "}") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(inner.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(inner.slice(last));
  return parts;
}

function tokenize(pattern: string, separator?: string): Token[] {
  const chars = Array.from(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === "\\") {
      const next = chars[++i];
      if (next === undefined) throw new TagPatternError("pattern ends with an escape");
      tokens.push({ kind: "char", char: next });
    } else if (ch === "*") {
      // Without a separator every star crosses; with one, only `**` does (gobwas/glob).
      const double = chars[i + 1] === "*";
      while (chars[i + 1] === "*") i++;
      const crosses = separator === undefined || double;
      const last = tokens.at(-1);
      if (last?.kind === "star") {
        if (crosses && !last.crosses) tokens[tokens.length - 1] = { kind: "star", crosses: true };
      } else tokens.push({ kind: "star", crosses });
    } else if (ch === "?") {
      tokens.push({ kind: "any", crosses: separator === undefined });
    } else if (ch === "[") {
      const end = chars.indexOf("]", i + 1);
      if (end < 0) throw new TagPatternError("unbalanced [ in pattern");
      let body = chars.slice(i + 1, end);
      const negated = body[0] === "!";
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let j = 0; j < body.length; j++) {
        const lo = body[j] as string;
        if (body[j + 1] === "-" && body[j + 2] !== undefined) {
          ranges.push([lo, body[j + 2] as string]);
          j += 2;
        } else ranges.push([lo, lo]);
      }
      tokens.push({ kind: "class", negated, ranges });
      i = end;
    } else {
      tokens.push({ kind: "char", char: ch });
    }
  }
  return tokens;
}

function tokenMatches(token: Token, ch: string, separator: string | undefined): boolean {
  switch (token.kind) {
    case "char":
      return token.char === ch;
    case "any":
      return token.crosses || ch !== separator;
    case "class": {
      const inside = token.ranges.some(([lo, hi]) => ch >= lo && ch <= hi);
      return inside !== token.negated;
    }
    default:
      return false;
  }
}

/** Whether `tokens` match all of `text` (a table over positions: O(len(text) × len(tokens))). */
function matchTokens(tokens: readonly Token[], text: readonly string[], separator?: string): boolean {
  // reach[j]: the first j tokens can match the text read so far.
  let reach = new Array<boolean>(tokens.length + 1).fill(false);
  reach[0] = true;
  for (let j = 0; j < tokens.length && tokens[j]?.kind === "star"; j++) reach[j + 1] = true;
  for (const ch of text) {
    const next = new Array<boolean>(tokens.length + 1).fill(false);
    for (let j = 0; j < tokens.length; j++) {
      const token = tokens[j] as Token;
      if (token.kind === "star") {
        if (reach[j + 1] && (token.crosses || ch !== separator)) next[j + 1] = true;
      } else if (reach[j] && tokenMatches(token, ch, separator)) next[j + 1] = true;
    }
    // A star may also match nothing: carry the reach across it.
    for (let j = 0; j < tokens.length; j++) if (tokens[j]?.kind === "star" && next[j]) next[j + 1] = true;
    reach = next;
  }
  return reach[tokens.length] === true;
}

const cache = new Map<string, readonly Token[][]>();

/** Compiles a glob tag pattern; throws {@link TagPatternError} for one Kiln cannot use. */
export function compileTagPattern(pattern: string): readonly Token[][] {
  const cached = cache.get(pattern);
  if (cached) return cached;
  if (isRegexTagPattern(pattern))
    throw new TagPatternError("regular-expression tag patterns are not supported");
  const compiled = expandBraces(pattern).map((alternative) => tokenize(alternative));
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/**
 * A path glob in gobwas/glob's syntax with `/` as separator (how Forgejo reads `.forgejo/template`):
 * `*` and `?` stay within a path segment, `**` crosses segments, with classes, `{a,b}` and
 * escapes. Matched by the same linear table walk as tag patterns; throws {@link TagPatternError}
 * for a glob Kiln cannot use.
 */
export function compilePathGlob(glob: string): (path: string) => boolean {
  const compiled = expandBraces(glob).map((alternative) => tokenize(alternative, "/"));
  return (path) => {
    const text = Array.from(path);
    return compiled.some((tokens) => matchTokens(tokens, text, "/"));
  };
}

/**
 * Whether a tag name matches a rule's pattern. A stored pattern that does not compile (the API
 * refuses such patterns; one could only come from elsewhere) matches every tag: a broken rule
 * protects too much rather than nothing.
 */
export function tagPatternMatches(pattern: string, tag: string): boolean {
  let compiled: readonly Token[][];
  try {
    compiled = compileTagPattern(pattern.trim());
  } catch {
    return true;
  }
  const text = Array.from(tag);
  return compiled.some((tokens) => matchTokens(tokens, text));
}

/** One tag protection rule as it applies to one user: its pattern, and whether the user is on its allowlists. */
export interface TagRulePolicy {
  readonly pattern: string;
  readonly allowed: boolean;
}

/**
 * Forgejo's `IsUserAllowedToControlTag`: a tag no rule matches is free; otherwise the user must be
 * allowed by at least one matching rule.
 */
export function mayControlTag(rules: readonly TagRulePolicy[], tag: string): boolean {
  let allowed = true;
  for (const rule of rules) {
    if (!tagPatternMatches(rule.pattern, tag)) continue;
    allowed = rule.allowed;
    if (allowed) break;
  }
  return allowed;
}
