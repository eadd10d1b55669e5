/**
 * A unified diff as git prints it (`git diff -p -M`, `git show`), read line by line into files,
 * hunks and lines for the pages, within Forgejo's `[git] MAX_GIT_DIFF_*` bounds: whatever is past
 * them is dropped and the file or the diff is marked incomplete, so a huge diff costs bounded memory.
 */

/** One line of a hunk, with its numbers on the old and the new side (absent where it has none). */
export interface DiffLine {
  readonly kind: "add" | "del" | "context" | "no-newline";
  readonly text: string;
  readonly oldLine?: number;
  readonly newLine?: number;
}

/** A hunk: its header's numbers, the section heading git adds (a function name), its lines. */
export interface DiffHunk {
  readonly header: string;
  readonly section: string;
  readonly oldStart: number;
  readonly newStart: number;
  readonly lines: DiffLine[];
}

/** How a file changed (git's statuses in Forgejo's words). */
export type DiffFileStatus = "added" | "deleted" | "modified" | "renamed" | "copied";

/** One file of a diff. */
export interface DiffFile {
  /** The path after the change (the old path of a deleted file). */
  name: string;
  /** The path before a rename or copy. */
  oldName?: string;
  status: DiffFileStatus;
  binary: boolean;
  /** Old and new mode when the mode changed. */
  modeChange?: { readonly from: string; readonly to: string };
  additions: number;
  deletions: number;
  readonly hunks: DiffHunk[];
  /** Lines past the bounds were dropped (too many lines, or a line too long). */
  incomplete: boolean;
}

/** A parsed diff; `incomplete` when files past the bound were dropped. */
export interface ParsedDiff {
  readonly files: DiffFile[];
  incomplete: boolean;
  additions: number;
  deletions: number;
}

/** Forgejo's `[git] MAX_GIT_DIFF_FILES`, `MAX_GIT_DIFF_LINES` and `MAX_GIT_DIFF_LINE_CHARACTERS`. */
export interface DiffLimits {
  readonly maxFiles: number;
  /** Lines shown per file. */
  readonly maxLines: number;
  readonly maxLineCharacters: number;
}

/** Forgejo's defaults. */
export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxFiles: 100, maxLines: 1000, maxLineCharacters: 5000 };

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@ ?(.*)$/;
const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** Undoes git's C-style quoting of a path (`"a/caf\303\251"`), leaving an unquoted one as it is. */
export function unquoteGitPath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== "\\") {
      bytes.push(...Buffer.from(ch, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A side's path from `--- a/x`, `+++ b/x` (undefined for /dev/null). */
function sidePath(text: string): string | undefined {
  const name = unquoteGitPath(text.replace(/\t$/, ""));
  if (name === "/dev/null") return undefined;
  return name.replace(/^[ab]\//, "");
}

/** The names of `diff --git a/x b/x` when no other header gives them (binary, mode-only, empty). */
function headerNames(rest: string): [string, string] {
  if (rest.startsWith('"')) {
    const end = rest.indexOf('" ', 1);
    const a = rest.slice(0, end + 1);
    return [sidePath(a) ?? "", sidePath(rest.slice(end + 2)) ?? ""];
  }
  // Unquoted and the same on both sides (git prints the old and new name of a rename in their own headers).
  const half = (rest.length - 1) / 2;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return [a.replace(/^a\//, ""), b.replace(/^b\//, "")];
}

/**
 * Reads a diff one line at a time (`feed` returns false once nothing more will be kept, so the
 * caller may stop reading git's output), then `result()`.
 */
export class DiffParser {
  private readonly diff: ParsedDiff = { files: [], incomplete: false, additions: 0, deletions: 0 };
  private file: DiffFile | undefined;
  private hunk: { hunk: DiffHunk; old: number; new: number } | undefined;
  private fileLines = 0;
  private done = false;

  constructor(private readonly limits: DiffLimits = DEFAULT_DIFF_LIMITS) {}

  feed(line: string): boolean {
    if (this.done) return false;
    if (line.startsWith("diff --git ")) return this.startFile(line.slice("diff --git ".length));
    const file = this.file;
    if (!file) return true;
    if (this.hunk) return this.hunkLine(file, line);
    this.headerLine(file, line);
    return true;
  }

  result(): ParsedDiff {
    return this.diff;
  }

  private startFile(rest: string): boolean {
    if (this.diff.files.length >= this.limits.maxFiles) {
      this.diff.incomplete = true;
      this.done = true;
      return false;
    }
    const [oldName, name] = headerNames(rest);
    this.file = {
      name,
      status: "modified",
      binary: false,
      additions: 0,
      deletions: 0,
      hunks: [],
      incomplete: false,
    };
    if (oldName !== name) this.file.oldName = oldName;
    this.diff.files.push(this.file);
    this.hunk = undefined;
    this.fileLines = 0;
    return true;
  }

  private headerLine(file: DiffFile, line: string): void {
    const m = HUNK.exec(line);
    if (m) {
      this.openHunk(file, line, m);
    } else if (line.startsWith("new file mode")) file.status = "added";
    else if (line.startsWith("deleted file mode")) file.status = "deleted";
    else if (line.startsWith("rename from ")) {
      file.status = "renamed";
      file.oldName = unquoteGitPath(line.slice(12));
    } else if (line.startsWith("rename to ")) file.name = unquoteGitPath(line.slice(10));
    else if (line.startsWith("copy from ")) {
      file.status = "copied";
      file.oldName = unquoteGitPath(line.slice(10));
    } else if (line.startsWith("copy to ")) file.name = unquoteGitPath(line.slice(8));
    else if (line.startsWith("old mode ")) file.modeChange = { from: line.slice(9), to: "" };
    else if (line.startsWith("new mode ") && file.modeChange) {
      file.modeChange = { from: file.modeChange.from, to: line.slice(9) };
    } else if (line.startsWith("--- ")) {
      const old = sidePath(line.slice(4));
      if (old !== undefined && file.status !== "added" && old !== file.name) file.oldName = old;
    } else if (line.startsWith("+++ ")) {
      const now = sidePath(line.slice(4));
      if (now !== undefined) file.name = now;
    } else if (line.startsWith("Binary files ") || line === "GIT binary patch") file.binary = true;
  }

  private openHunk(file: DiffFile, header: string, m: RegExpExecArray): void {
    const oldStart = Number(m[1]);
    const newStart = Number(m[2]);
    const end = header.indexOf(" @@", 3);
    const hunk: DiffHunk = {
      header: end < 0 ? header : header.slice(0, end + 3),
      section: m[3] ?? "",
      oldStart,
      newStart,
      lines: [],
    };
    this.hunk = { hunk, old: oldStart, new: newStart };
    if (!file.incomplete) file.hunks.push(hunk);
  }

  private hunkLine(file: DiffFile, line: string): boolean {
    const m = HUNK.exec(line);
    if (m) {
      this.openHunk(file, line, m);
      return true;
    }
    const state = this.hunk as { hunk: DiffHunk; old: number; new: number };
    const mark = line[0];
    let entry: DiffLine;
    const text = line.slice(1);
    if (mark === "+") {
      entry = { kind: "add", text, newLine: state.new++ };
      file.additions++;
      this.diff.additions++;
    } else if (mark === "-") {
      entry = { kind: "del", text, oldLine: state.old++ };
      file.deletions++;
      this.diff.deletions++;
    } else if (mark === "\\") entry = { kind: "no-newline", text: line.slice(2) };
    else if (mark === " " || line === "")
      entry = { kind: "context", text, oldLine: state.old++, newLine: state.new++ };
    else {
      // Not a hunk line: git's next header (a `git show` of a merge lists no more files).
      this.hunk = undefined;
      this.headerLine(file, line);
      return true;
    }
    if (file.incomplete) return true;
    if (this.fileLines >= this.limits.maxLines || text.length > this.limits.maxLineCharacters) {
      file.incomplete = true;
      return true;
    }
    this.fileLines++;
    state.hunk.lines.push(entry);
    return true;
  }
}

/** Parses a whole diff held as text (tests, small diffs). */
export function parseDiff(text: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): ParsedDiff {
  const parser = new DiffParser(limits);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) if (!parser.feed(line)) break;
  return parser.result();
}
