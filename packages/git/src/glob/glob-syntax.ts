/**
 * The syntax tree of a glob and its parser. Two dialects share it: gobwas/glob's (what Forgejo
 * compiles branch filters, protection rule names, file patterns, tag patterns and template globs
 * with) and EditorConfig's section globs. Parsing is one left-to-right pass over the pattern.
 */

/** One element of a glob. */
export type GlobNode =
  | { readonly kind: "char"; readonly char: string }
  /** `?`: one character (not a separator, when there are separators). */
  | { readonly kind: "single" }
  /** `*` (`crosses: false` stops at separators) or `**` (crosses them). */
  | { readonly kind: "star"; readonly crosses: boolean }
  | {
      readonly kind: "class";
      readonly negated: boolean;
      readonly ranges: readonly (readonly [string, string])[];
    }
  /** `{a,b}`: any one of the alternatives. */
  | { readonly kind: "alt"; readonly branches: readonly (readonly GlobNode[])[] }
  /** EditorConfig's `**` + `/`: no directory, or any number of them. */
  | { readonly kind: "dirs" }
  /** A construct Kiln does not match (EditorConfig's numeric ranges): it matches nothing. */
  | { readonly kind: "never" };

/** Which glob language a pattern is written in. */
export type GlobDialect = "gobwas" | "editorconfig";

/** A pattern that cannot be compiled: the message says why. */
export class GlobSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GlobSyntaxError";
  }
}

/** Reads one pattern; `separators` decides whether a single `*` crosses (gobwas without separators). */
export function parseGlob(pattern: string, dialect: GlobDialect, hasSeparators: boolean): GlobNode[] {
  const chars = Array.from(pattern);
  let i = 0;
  const editor = dialect === "editorconfig";

  const parseClass = (): GlobNode | undefined => {
    // At `[`: find the closing `]` (escapes skipped); none means no class.
    let end = i + 1;
    if (chars[end] === "!") end++;
    if (editor && chars[end] === "]") end++;
    while (end < chars.length && chars[end] !== "]") end += chars[end] === "\\" ? 2 : 1;
    if (end >= chars.length) return undefined;
    let j = i + 1;
    const negated = chars[j] === "!";
    if (negated) j++;
    const body: string[] = [];
    for (; j < end; j++) {
      if (chars[j] === "\\" && j + 1 < end) j++;
      body.push(chars[j] as string);
    }
    const ranges: [string, string][] = [];
    for (let k = 0; k < body.length; k++) {
      const lo = body[k] as string;
      if (body[k + 1] === "-" && k + 2 < body.length) {
        ranges.push([lo, body[k + 2] as string]);
        k += 2;
      } else ranges.push([lo, lo]);
    }
    i = end + 1;
    return { kind: "class", negated, ranges };
  };

  /** EditorConfig: `{a,b}` needs a top-level comma, `{3..7}` is a numeric range, else `{` is literal. */
  const editorBraceKind = (): "alt" | "range" | "literal" => {
    let depth = 0;
    let comma = false;
    let k = i;
    for (; k < chars.length; k++) {
      const ch = chars[k];
      if (ch === "\\") k++;
      else if (ch === "{") depth++;
      else if (ch === "}") {
        depth--;
        if (depth === 0) break;
      } else if (ch === "," && depth === 1) comma = true;
    }
    if (k >= chars.length) return "literal";
    if (comma) return "alt";
    return /^[+-]?\d+\.\.[+-]?\d+$/.test(chars.slice(i + 1, k).join("")) ? "range" : "literal";
  };

  const parseSequence = (depth: number): GlobNode[] => {
    const nodes: GlobNode[] = [];
    while (i < chars.length) {
      const ch = chars[i] as string;
      if (depth > 0 && (ch === "," || ch === "}")) return nodes;
      if (ch === "\\") {
        const next = chars[i + 1];
        if (next === undefined) {
          if (!editor) throw new GlobSyntaxError("pattern ends with an escape");
          nodes.push({ kind: "char", char: "\\" });
          i++;
        } else {
          nodes.push({ kind: "char", char: next });
          i += 2;
        }
      } else if (ch === "*") {
        let run = 0;
        while (chars[i] === "*") {
          run++;
          i++;
        }
        const previous = nodes.at(-1);
        if (editor && run >= 2 && chars[i] === "/" && (previous === undefined || isSlash(previous))) {
          nodes.push({ kind: "dirs" });
          i++;
        } else {
          const crosses = run >= 2 || !hasSeparators;
          // Consecutive stars are one: the widest wins.
          if (previous?.kind === "star") {
            if (crosses && !previous.crosses) nodes[nodes.length - 1] = { kind: "star", crosses };
          } else nodes.push({ kind: "star", crosses });
        }
      } else if (ch === "?") {
        nodes.push({ kind: "single" });
        i++;
      } else if (ch === "[") {
        const cls = parseClass();
        if (cls) nodes.push(cls);
        else if (editor) {
          nodes.push({ kind: "char", char: "[" });
          i++;
        } else throw new GlobSyntaxError("unclosed [ in pattern");
      } else if (ch === "{") {
        const kind = editor ? editorBraceKind() : "alt";
        if (kind === "literal") {
          nodes.push({ kind: "char", char: "{" });
          i++;
        } else if (kind === "range") {
          while (chars[i] !== "}") i++;
          i++;
          nodes.push({ kind: "never" });
        } else {
          i++;
          const branches: GlobNode[][] = [];
          for (;;) {
            branches.push(parseSequence(depth + 1));
            const sep = chars[i];
            if (sep === undefined) throw new GlobSyntaxError("unclosed { in pattern");
            i++;
            if (sep === "}") break;
          }
          nodes.push({ kind: "alt", branches });
        }
      } else {
        // `]`, `}` and `,` outside their constructs are plain characters (gobwas/glob's lexer).
        nodes.push({ kind: "char", char: ch });
        i++;
      }
    }
    if (depth > 0) throw new GlobSyntaxError("unclosed { in pattern");
    return nodes;
  };

  return parseSequence(0);
}

function isSlash(node: GlobNode): boolean {
  return node.kind === "char" && node.char === "/";
}
