import { InvalidArgumentError } from "@kiln/domain";

/**
 * Compiles a branch filter as Forgejo does with gobwas/glob without separators: `*` matches any
 * run of characters (slashes included), `?` one character, `[abc]`/`[a-z]`/`[!abc]` a class,
 * `{a,b}` alternatives (nestable), `\` escapes. picomatch and minimatch treat `/` as a separator,
 * so `feature*` would not match `feature/x` there as it does in Forgejo: hence this small compiler.
 * Invalid syntax is 422.
 */
export function compileBranchGlob(pattern: string): RegExp {
  let i = 0;
  const fail = (): never => {
    throw new InvalidArgumentError(`Invalid branch filter: ${pattern}`);
  };
  const literal = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
  const parse = (inAlt: boolean): string => {
    let out = "";
    while (i < pattern.length) {
      const ch = pattern[i] as string;
      if (inAlt && (ch === "," || ch === "}")) return out;
      i++;
      if (ch === "\\") {
        if (i >= pattern.length) fail();
        out += literal(pattern[i++] as string);
      } else if (ch === "*") {
        while (pattern[i] === "*") i++;
        out += "[\\s\\S]*";
      } else if (ch === "?") {
        out += "[\\s\\S]";
      } else if (ch === "[") {
        const end = pattern.indexOf("]", i + 1);
        if (end < 0) fail();
        let body = pattern.slice(i, end);
        i = end + 1;
        const negate = body.startsWith("!");
        if (negate) body = body.slice(1);
        if (body === "") fail();
        const cls = body.replace(/[\\\]^[]/g, "\\$&");
        out += `[${negate ? "^" : ""}${cls}]`;
      } else if (ch === "{") {
        const alts: string[] = [];
        for (;;) {
          alts.push(parse(true));
          const sep = pattern[i++];
          if (sep === "}") break;
          if (sep !== ",") fail();
        }
        out += `(?:${alts.join("|")})`;
      } else if (ch === "}" || (ch === "," && inAlt)) {
        fail();
      } else {
        out += literal(ch);
      }
    }
    if (inAlt) fail();
    return out;
  };
  const source = parse(false);
  return new RegExp(`^${source}$`, "u");
}

/** Forgejo's checkBranch: an empty filter or `*` passes every branch. */
export function branchMatches(filter: string, branch: string): boolean {
  if (filter === "" || filter === "*") return true;
  try {
    return compileBranchGlob(filter).test(branch);
  } catch {
    return false;
  }
}
