import type { HLJSApi } from "highlight.js";
import { Lru } from "./lru.js";

/**
 * Syntax highlighting on the server with highlight.js (its `common` build: about 40 languages,
 * registered once), so code pages need no script. Each file's lines are cached by blob id and
 * language: a blob never changes, so the cache needs no invalidation, only bounds. The library
 * (about 1 MiB of JavaScript with its languages) is loaded by the first file shown, not at start-up:
 * every process the server starts pays in proportion to its memory.
 */

let loading: Promise<HLJSApi> | undefined;

/** highlight.js, imported once on first use. */
function highlighter(): Promise<HLJSApi> {
  loading ??= import("highlight.js/lib/common").then((m) => m.default);
  return loading;
}

/** Highlighted files kept: at most 200, at most 16 M characters of HTML in all. */
const cache = new Lru<readonly string[]>(200, 16 * 1024 * 1024);

/**
 * Larger files are shown as plain numbered lines: highlighting is synchronous and costs about
 * 0.25-1 s for 200 KB of TypeScript on a busy 2-core machine (bench/web/highlight.mjs), while
 * escaping costs milliseconds. Forgejo stops highlighting at 1 MiB, but its highlighter is Go.
 */
export const MAX_HIGHLIGHT_SIZE = 128 * 1024;

/** Names without an extension that still say their language. */
const BY_NAME: Readonly<Record<string, string>> = {
  makefile: "makefile",
  gnumakefile: "makefile",
  cmakelists: "cmake",
  ".bashrc": "bash",
  ".profile": "bash",
  ".gitignore": "plaintext",
};

/** The highlight.js language for a file name, or undefined (shown as plain text). */
export async function languageFor(name: string): Promise<string | undefined> {
  const lower = name.toLowerCase();
  const named = BY_NAME[lower] ?? BY_NAME[lower.replace(/\.txt$/, "")];
  if (named) return named === "plaintext" ? undefined : named;
  const dot = lower.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const extension = lower.slice(dot + 1);
  return (await highlighter()).getLanguage(extension) ? extension : undefined;
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
};

/** `text` escaped for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * Cuts highlighted HTML into lines, closing the spans open at each line's end and opening them
 * again on the next, so every line is well-formed HTML on its own (a row of the table).
 */
export function splitLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = "";
  const token = /<span[^>]*>|<\/span>|\n|[^<\n]+|</g;
  for (const m of html.matchAll(token)) {
    const t = m[0];
    if (t === "\n") {
      lines.push(line + "</span>".repeat(open.length));
      line = open.join("");
    } else {
      if (t.startsWith("<span")) open.push(t);
      else if (t === "</span>") open.pop();
      line += t;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * The lines of a text file as HTML (highlighted when its language is known, escaped otherwise),
 * cached under `blobSha`. A final newline does not make an empty last line.
 */
export async function highlightLines(
  blobSha: string,
  name: string,
  text: string,
): Promise<readonly string[]> {
  const language = text.length <= MAX_HIGHLIGHT_SIZE ? await languageFor(name) : undefined;
  const key = `${blobSha}:${language ?? ""}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const html = language
    ? (await highlighter()).highlight(body, { language, ignoreIllegals: true }).value
    : escapeHtml(body);
  const lines = splitLines(html);
  cache.set(key, lines, html.length);
  return lines;
}
