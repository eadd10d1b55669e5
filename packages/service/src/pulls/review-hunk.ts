import { diffStream, type GitRepository } from "@kiln/git";

/** Forgejo's `[ui] CODE_COMMENT_LINES`: lines of the diff kept above a line comment. */
export const CODE_COMMENT_LINES = 4;

/** A stored hunk larger than this is not kept (a minified line would otherwise be stored whole). */
const MAX_PATCH = 256 * 1024;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Git's C-style quoting of a path in diff headers (`core.quotePath`, on by default): names with
 * control characters, quotes, backslashes or bytes beyond ASCII are quoted and escaped.
 */
export function quoteGitPath(name: string): string {
  const bytes = Buffer.from(name, "utf8");
  const escapes: Record<number, string> = { 7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r" };
  const needs = bytes.some((b) => b < 0x20 || b === 0x22 || b === 0x5c || b >= 0x7f);
  if (!needs) return name;
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (escapes[b]) out += `\\${escapes[b]}`;
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

/**
 * Forgejo's CutDiffAroundLine, fed one line of a file's diff at a time: finds the hunk holding
 * `line` (on the old side when `old`) and keeps the file's headers, the hunk's header and its
 * last `context` lines up to the commented one, with the header recounted when the hunk was cut.
 * Only the kept lines are held, however long the hunk.
 */
export class HunkCutter {
  private readonly headers: string[] = [];
  private hunkHeader = "";
  private readonly tail: string[] = [];
  private count = 0;
  private current = 0;
  private other = 0;
  private found = false;
  private inHunk = false;
  done = false;

  constructor(
    private readonly line: number,
    private readonly old: boolean,
    private readonly context = CODE_COMMENT_LINES,
  ) {
    if (line <= 0 || context <= 0) this.done = true;
  }

  /** Takes the next line of the diff; false once the answer is known. */
  feed(lof: string): boolean {
    if (this.done) return false;
    if (!this.found && isHeader(lof, this.inHunk)) {
      if (lof.startsWith("diff --git ")) this.inHunk = false;
      this.headers.push(lof);
    }
    if (this.found && this.current > this.line) return this.finish();
    if (lof.startsWith("@@")) {
      this.inHunk = true;
      if (this.found) return this.finish();
      const m = HUNK_HEADER.exec(lof);
      if (!m) return true;
      const [oldBegin, oldCount, newBegin, newCount] = [m[1], m[2], m[3], m[4]].map((n, i) =>
        n === undefined ? (i % 2 === 1 ? 1 : 0) : Number(n),
      ) as [number, number, number, number];
      const [begin, count] = this.old ? [oldBegin, oldCount] : [newBegin, newCount];
      if (begin <= this.line && this.line < begin + count) {
        this.found = true;
        this.hunkHeader = lof;
        this.current = begin;
        this.other = this.old ? newBegin : oldBegin;
      }
      return true;
    }
    if (!this.found || lof === "") return true;
    this.count++;
    this.tail.push(lof);
    if (this.tail.length > this.context) this.tail.shift();
    const mark = lof[0];
    if (mark === "\\") return true;
    if (mark === "+") this.old ? this.other++ : this.current++;
    else if (mark === "-") this.old ? this.current++ : this.other++;
    else {
      this.current++;
      this.other++;
    }
    return true;
  }

  /** The file's diff ended (or the hunk did). */
  finish(): false {
    this.done = true;
    return false;
  }

  /** The stored patch: headers, hunk header and the kept lines; "" when no hunk holds the line. */
  result(): string {
    if (!this.found) return "";
    let header = this.hunkHeader;
    if (this.count > this.context) {
      // Recount from the line after the comment back over the kept lines.
      let [oldBegin, newBegin] = this.old ? [this.current, this.other] : [this.other, this.current];
      let oldLines = 0;
      let newLines = 0;
      for (const lof of this.tail) {
        const mark = lof[0];
        if (mark === "\\") continue;
        if (mark !== "-") {
          newBegin--;
          newLines++;
        }
        if (mark !== "+") {
          oldBegin--;
          oldLines++;
        }
      }
      header = `@@ -${oldBegin},${oldLines} +${newBegin},${newLines} @@`;
    }
    const patch = [...this.headers, header, ...this.tail].join("\n");
    return patch.length > MAX_PATCH ? "" : patch;
  }
}

function isHeader(lof: string, inHunk: boolean): boolean {
  return lof.startsWith("diff --git ") || (!inHunk && (lof.startsWith("---") || lof.startsWith("+++")));
}

/** Forgejo's patch2diff: the `diff_hunk` the API shows, from the hunk header on. */
export function diffHunkOf(patch: string): string {
  const at = patch.indexOf("\n@@");
  return at < 0 ? "" : patch.slice(at + 1);
}

/** Where a line comment is: a file and a line (negative on the old side). */
export interface CommentedLine {
  readonly path: string;
  readonly line: number;
}

/**
 * The stored patch of each commented line (Forgejo's CreateCodeCommentKnownReviewID cuts it from
 * `git diff <merge base> <head> -- <path>`): one pass over the pull request's diff serves every
 * line, and stops once each has its hunk. A file is the section whose header names it, or whose
 * new name it is after a rename. Lines outside every hunk get "".
 */
export async function cutPatches(
  git: GitRepository,
  base: string,
  head: string,
  lines: readonly CommentedLine[],
): Promise<string[]> {
  const cutters = lines.map((l) => new HunkCutter(Math.abs(l.line), l.line < 0));
  if (!base || !head || cutters.every((c) => c.done)) return cutters.map(() => "");
  const byPath = new Map<string, number[]>();
  for (const [i, l] of lines.entries()) byPath.set(l.path, [...(byPath.get(l.path) ?? []), i]);
  const headerOf = new Map(
    [...byPath.keys()].map((p) => [`diff --git ${quoteGitPath(`a/${p}`)} ${quoteGitPath(`b/${p}`)}`, p]),
  );
  const newNameOf = new Map([...byPath.keys()].map((p) => [`+++ ${quoteGitPath(`b/${p}`)}`, p]));

  let pending: string[] = [];
  let section: number[] | undefined;
  let open = false;
  const feed = (lof: string) => {
    for (const i of section ?? []) cutters[i]?.feed(lof);
  };
  const reader = diffStream(git, base, head).getReader();
  const decoder = new TextDecoder();
  let rest = "";
  const take = (lof: string): boolean => {
    if (lof.startsWith("diff --git ")) {
      for (const i of section ?? []) cutters[i]?.finish();
      if (cutters.every((c) => c.done)) return false;
      const path = headerOf.get(lof);
      section = path === undefined ? undefined : byPath.get(path);
      pending = [lof];
      open = false;
      return true;
    }
    if (!open) {
      pending.push(lof);
      const renamed = newNameOf.get(lof);
      if (renamed !== undefined) section = byPath.get(renamed);
      if (lof.startsWith("@@") || lof.startsWith("Binary files ")) {
        open = true;
        for (const held of pending) feed(held);
        pending = [];
      }
      return true;
    }
    feed(lof);
    return !cutters.every((c) => c.done);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      rest += decoder.decode(value, { stream: !done });
      const parts = rest.split("\n");
      rest = done ? "" : (parts.pop() ?? "");
      let more = true;
      for (const lof of parts) {
        more = take(lof);
        if (!more) break;
      }
      if (!more || done) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return cutters.map((c) => c.result());
}
