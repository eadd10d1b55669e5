import { DEFAULT_CLOSE_KEYWORDS, DEFAULT_REOPEN_KEYWORDS } from "@kiln/domain";

/**
 * Issue references in text, as Forgejo's modules/references finds them: `#12` and `!12` (this
 * repository) and `owner/repo#12`, where a word may start and end, each with the action a keyword
 * just before it asks for (`Fixes #12`, `closes: owner/repo#3`, `Reopens #4`). Everything is a
 * single pass or a bounded look back, so no text makes it slow.
 */

/** What a reference asks of the issue it names. */
export type ReferenceAction = "none" | "closes" | "reopens";

/** One reference found in a text; `owner` and `name` are lower-cased, absent for this repository. */
export interface IssueReference {
  readonly owner?: string;
  readonly name?: string;
  readonly index: number;
  readonly action: ReferenceAction;
}

/** The words that close and reopen (`[repository.pull-request] CLOSE_KEYWORDS`, `REOPEN_KEYWORDS`). */
export interface ReferenceKeywords {
  readonly close: readonly string[];
  readonly reopen: readonly string[];
}

/** Forgejo's default keywords. */
export const DEFAULT_KEYWORDS: ReferenceKeywords = {
  close: DEFAULT_CLOSE_KEYWORDS,
  reopen: DEFAULT_REOPEN_KEYWORDS,
};

/** The longest keyword looked for; Forgejo's are letters only, and longer ones never match here. */
const MAX_KEYWORD = 64;

/** `#12`/`!12` (after a space, `(`, `[`, `'`, `"` or the start) and `owner/repo#12` (after a space, `(`, `[` or the start). */
const LOCAL = /(?<=^|[\s(['"])[#!]([0-9]{1,18})(?=$|[\s)\]'"]|[:;,.?!](?:\s|$))/g;
const CROSS =
  /(?<=^|[\s([])([0-9A-Za-z_.-]{1,100})\/([0-9A-Za-z_.-]{1,100})[#!]([0-9]{1,18})(?=$|[\s)\]]|[:;,.?!](?:\s|$))/g;

/**
 * The references of a plain text (a commit message, a title), in the order Forgejo lists them:
 * those in this repository first, then those in others.
 */
export function findIssueReferences(text: string, keywords: ReferenceKeywords): IssueReference[] {
  const close = new Set(keywords.close.map((word) => word.trim().toLowerCase()));
  const reopen = new Set(keywords.reopen.map((word) => word.trim().toLowerCase()));
  const actionAt = (start: number): ReferenceAction => {
    const word = keywordBefore(text, start);
    if (word === undefined) return "none";
    if (close.has(word)) return "closes";
    return reopen.has(word) ? "reopens" : "none";
  };
  const found: IssueReference[] = [];
  for (const match of text.matchAll(LOCAL)) {
    const index = Number(match[1]);
    if (Number.isSafeInteger(index)) found.push({ index, action: actionAt(match.index) });
  }
  for (const match of text.matchAll(CROSS)) {
    const index = Number(match[3]);
    if (!Number.isSafeInteger(index)) continue;
    const owner = (match[1] ?? "").toLowerCase();
    const name = (match[2] ?? "").toLowerCase();
    found.push({ owner, name, index, action: actionAt(match.index) });
  }
  return found;
}

/**
 * The references of a Markdown text (a pull request's description): code spans and fenced or
 * indented code are not read, as Forgejo strips Markdown before looking.
 */
export function findMarkdownReferences(markdown: string, keywords: ReferenceKeywords): IssueReference[] {
  return findIssueReferences(withoutCode(markdown), keywords);
}

/**
 * The keyword that ends just before `start` (Forgejo: a word of letters after a space, `(`, `[` or
 * the start, then an optional `:` and exactly one space), lower-cased.
 */
function keywordBefore(text: string, start: number): string | undefined {
  if (start < 2 || text[start - 1] !== " ") return undefined;
  let end = start - 1;
  if (text[end - 1] === ":") end--;
  let begin = end;
  while (begin > 0 && end - begin <= MAX_KEYWORD && /\p{L}/u.test(text[begin - 1] as string)) begin--;
  if (begin === end || end - begin > MAX_KEYWORD) return undefined;
  if (begin > 0 && !/[\s([]/.test(text[begin - 1] as string)) return undefined;
  return text.slice(begin, end).toLowerCase();
}

/** The text with fenced code blocks, indented code lines and code spans blanked out (one pass per line). */
function withoutCode(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      out.push("");
    } else if (marker !== undefined) {
      fence = marker;
      out.push("");
    } else if (/^( {4}|\t)/.test(line)) {
      out.push("");
    } else {
      out.push(withoutCodeSpans(line));
    }
  }
  return out.join("\n");
}

/**
 * A line with its code spans blanked: a run of backticks up to the next run of the same length
 * (CommonMark's rule). The next run of each length is found from a table built once, so the
 * line is read a fixed number of times whatever its backticks.
 */
function withoutCodeSpans(line: string): string {
  const runs: { readonly start: number; readonly length: number }[] = [];
  for (let i = 0; i < line.length; ) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    let j = i;
    while (line[j] === "`") j++;
    runs.push({ start: i, length: j - i });
    i = j;
  }
  if (runs.length < 2) return line;
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    const run = runs[r] as { start: number; length: number };
    nextSame[r] = lastOfLength.get(run.length) ?? -1;
    lastOfLength.set(run.length, r);
  }
  let out = "";
  let from = 0;
  for (let r = 0; r < runs.length; ) {
    const close = nextSame[r] as number;
    if (close < 0) {
      r++;
      continue;
    }
    const open = runs[r] as { start: number };
    const end = runs[close] as { start: number; length: number };
    out += `${line.slice(from, open.start)} `;
    from = end.start + end.length;
    r = close + 1;
  }
  return out + line.slice(from);
}
