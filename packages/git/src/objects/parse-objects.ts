/**
 * Parsers for git's commit, tree and tag objects, from the bytes `git cat-file --batch` (or any
 * other object source) gives. They read exactly what isomorphic-git's `readCommit`, `readTree`
 * and `readTag` read, field for field (the test compares them on real repositories), so either
 * object engine feeds the same parsed objects to the rest of the package.
 */

/** A person and time line (`author`, `committer`, `tagger`), as isomorphic-git parses it. */
export interface ParsedSignature {
  readonly name: string;
  readonly email: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  /** Minutes to add to local time to get UTC (so `+0100` is -60), as isomorphic-git has it. */
  readonly timezoneOffset: number;
}

/** A commit's fields; the shape of isomorphic-git's `CommitObject`. */
export interface CommitFields {
  readonly message: string;
  readonly tree: string;
  readonly parent: readonly string[];
  readonly author: ParsedSignature;
  readonly committer: ParsedSignature;
  readonly gpgsig?: string;
}

/** A commit with its id; the shape of isomorphic-git's `readCommit` result. */
export interface ParsedCommit {
  readonly oid: string;
  readonly commit: CommitFields;
}

/** One entry of a tree; the shape of isomorphic-git's `TreeEntry`. */
export interface ParsedTreeEntry {
  readonly mode: string;
  readonly path: string;
  readonly oid: string;
  readonly type: "blob" | "tree" | "commit";
}

/** A tree with its id; the shape of isomorphic-git's `readTree` result. */
export interface ParsedTree {
  readonly oid: string;
  readonly tree: readonly ParsedTreeEntry[];
}

/** An annotated tag's fields; the shape of isomorphic-git's `TagObject`. */
export interface TagFields {
  readonly object: string;
  readonly type: string;
  readonly tag: string;
  readonly tagger?: ParsedSignature;
  readonly message: string;
  readonly gpgsig?: string;
}

/** An annotated tag with its id; the shape of isomorphic-git's `readTag` result. */
export interface ParsedTag {
  readonly oid: string;
  readonly tag: TagFields;
}

/** The object is not what its type says (a header missing or malformed). */
export class ObjectParseError extends Error {
  readonly code = "ParseError";
}

const decoder = new TextDecoder();

/**
 * One CR-free text with no leading newlines and exactly one trailing newline. The trailing run is
 * cut by a scan: `/\n+$/` retries at every newline of a long run, quadratic in a pushed message.
 */
function normalizeNewlines(text: string): string {
  const body = text.replace(/\r/g, "").replace(/^\n+/, "");
  let end = body.length;
  while (end > 0 && body.charCodeAt(end - 1) === 10) end--;
  return `${body.slice(0, end)}\n`;
}

/** Characters `.` of a regular expression does not match; a signature line holding one is malformed. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The parts of `Name <email> 1700000000 +0100` exactly as `/^(.*) <(.*)> (.*) (.*)$/` splits
 * them (every group greedy: the last space, then the last `> ` before it, then the last ` <`
 * before that), found with three `lastIndexOf`s: the expression backtracks in a time that grows
 * with the fourth power of a crafted line's length, and signature lines come from pushes.
 */
export function splitSignatureLine(line: string): [string, string, string, string] | undefined {
  if (LINE_BREAK.test(line)) return undefined;
  const lastSpace = line.lastIndexOf(" ");
  if (lastSpace < 2) return undefined;
  const close = line.lastIndexOf("> ", lastSpace - 2);
  if (close < 2) return undefined;
  const open = line.lastIndexOf(" <", close - 2);
  if (open < 0) return undefined;
  return [
    line.slice(0, open),
    line.slice(open + 2, close),
    line.slice(close + 2, lastSpace),
    line.slice(lastSpace + 1),
  ];
}

/** `Name <email> 1700000000 +0100`. */
function parseSignature(line: string): ParsedSignature {
  const parts = splitSignatureLine(line);
  const zone = parts ? /(\+|-)(\d\d)(\d\d)/.exec(parts[3]) : null;
  if (!parts || !zone) throw new ObjectParseError(`malformed signature: ${line}`);
  const minutes = (zone[1] === "+" ? 1 : -1) * (Number(zone[2]) * 60 + Number(zone[3]));
  return {
    name: parts[0],
    email: parts[1],
    timestamp: Number(parts[2]),
    timezoneOffset: minutes === 0 ? minutes : -minutes,
  };
}

/** The header lines before the first blank line, continuation lines (leading space) joined. */
function headerLines(text: string): string[] {
  const end = text.indexOf("\n\n");
  const lines: string[] = [];
  for (const line of text.slice(0, end).split("\n")) {
    if (line.startsWith(" ") && lines.length > 0) lines[lines.length - 1] += `\n${line.slice(1)}`;
    else lines.push(line);
  }
  return lines;
}

const keyOf = (line: string) => line.slice(0, line.indexOf(" "));
const headerValue = (line: string) => line.slice(line.indexOf(" ") + 1);

/**
 * Parses a commit as git reads it: one `tree` first, the `parent` lines right after it, then
 * other headers of which the first of each name counts; the message after the first blank line.
 */
export function parseCommit(oid: string, data: Uint8Array): ParsedCommit {
  const text = decoder.decode(data);
  const lines = headerLines(text);
  const first = lines[0];
  if (first === undefined || keyOf(first) !== "tree") {
    throw new ObjectParseError(`commit ${oid} does not start with its tree`);
  }
  const parent: string[] = [];
  let index = 1;
  for (; index < lines.length && keyOf(lines[index] as string) === "parent"; index++) {
    parent.push(headerValue(lines[index] as string));
  }
  const headers = new Map<string, string>();
  for (; index < lines.length; index++) {
    const line = lines[index] as string;
    const key = keyOf(line);
    if (key !== "tree" && key !== "parent" && !headers.has(key)) headers.set(key, headerValue(line));
  }
  const author = headers.get("author");
  const committer = headers.get("committer");
  if (author === undefined || committer === undefined) {
    throw new ObjectParseError(`commit ${oid} has no author or committer`);
  }
  const gpgsig = headers.get("gpgsig");
  return {
    oid,
    commit: {
      message: normalizeNewlines(text.slice(text.indexOf("\n\n") + 2)),
      tree: headerValue(first),
      parent,
      author: parseSignature(author),
      committer: parseSignature(committer),
      ...(gpgsig !== undefined ? { gpgsig } : {}),
    },
  };
}

function typeOfMode(mode: string): ParsedTreeEntry["type"] {
  switch (mode) {
    case "040000":
      return "tree";
    case "100644":
    case "100755":
    case "120000":
      return "blob";
    case "160000":
      return "commit";
    default:
      throw new ObjectParseError(`unexpected tree entry mode ${mode}`);
  }
}

/** The index of the first `byte` at or after `from`, or -1. */
function byteAt(bytes: Uint8Array, byte: number, from: number): number {
  for (let index = from; index < bytes.length; index++) if (bytes[index] === byte) return index;
  return -1;
}

/**
 * Parses a tree: `<mode> <name>\0<20-byte id>` entries. Names that could step out of a
 * directory (containing `/` or `\`, `.` or `..`) are refused as git's fsck refuses them.
 */
export function parseTree(oid: string, data: Uint8Array): ParsedTree {
  const entries: ParsedTreeEntry[] = [];
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let cursor = 0;
  while (cursor < bytes.length) {
    // Scanned by hand: a mode and a name are a few bytes, and Buffer#indexOf costs more per call
    // than such a scan (a 5,000-entry walk spent most of its parsing there).
    const space = byteAt(bytes, 32, cursor);
    const nul = byteAt(bytes, 0, cursor);
    if (space < 0 || nul < 0 || nul < space || nul + 21 > bytes.length) {
      throw new ObjectParseError(`tree ${oid} is malformed at byte ${cursor}`);
    }
    let mode = bytes.toString("latin1", cursor, space);
    if (mode === "40000") mode = "040000";
    const path = bytes.toString("utf8", space + 1, nul);
    if (path.includes("/") || path.includes("\\") || path === "." || path === ".." || path === "") {
      throw new ObjectParseError(`tree ${oid} has an unsafe entry name`);
    }
    entries.push({ mode, path, oid: bytes.toString("hex", nul + 1, nul + 21), type: typeOfMode(mode) });
    cursor = nul + 21;
  }
  return { oid, tree: entries };
}

const SIGNATURE_START = "\n-----BEGIN PGP SIGNATURE-----";

/** Parses an annotated tag: headers (first of each name), message, and a trailing PGP signature. */
export function parseTag(oid: string, data: Uint8Array): ParsedTag {
  const text = decoder.decode(data);
  const headers = new Map<string, string>();
  for (const line of headerLines(text)) {
    const key = keyOf(line);
    if (!headers.has(key)) headers.set(key, headerValue(line));
  }
  const object = headers.get("object");
  const type = headers.get("type");
  const name = headers.get("tag");
  if (object === undefined || type === undefined || name === undefined) {
    throw new ObjectParseError(`tag ${oid} lacks object, type or tag`);
  }
  const normalized = normalizeNewlines(text);
  const unsigned = normalized.includes(SIGNATURE_START)
    ? normalized.slice(0, normalized.lastIndexOf(SIGNATURE_START))
    : normalized;
  const tagger = headers.get("tagger");
  const begin = text.indexOf("-----BEGIN PGP SIGNATURE-----");
  const endMarker = "-----END PGP SIGNATURE-----";
  const gpgsig = text.includes(SIGNATURE_START)
    ? normalizeNewlines(text.slice(begin, text.indexOf(endMarker) + endMarker.length))
    : undefined;
  return {
    oid,
    tag: {
      object,
      type,
      tag: name,
      ...(tagger !== undefined ? { tagger: parseSignature(tagger) } : {}),
      message: unsigned.slice(unsigned.indexOf("\n\n") + 2),
      ...(gpgsig !== undefined ? { gpgsig } : {}),
    },
  };
}
