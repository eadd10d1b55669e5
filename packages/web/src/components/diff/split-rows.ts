import type { DiffLine } from "@kiln/service";

/** One row of the split view: the old side's line on the left, the new side's on the right. */
export interface SplitRow {
  readonly left?: DiffLine;
  readonly right?: DiffLine;
}

/**
 * Pairs a hunk's lines for the split view, as Forgejo does: a context line on both sides, and a
 * run of removed lines beside the run of added lines that follows it, row by row (the longer run
 * continues alone). "No newline" notes stay beside the line they follow.
 */
export function splitRows(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) {
      const left = dels[i];
      const right = adds[i];
      rows.push({ ...(left ? { left } : {}), ...(right ? { right } : {}) });
    }
    dels = [];
    adds = [];
  };
  let last: "del" | "add" | "context" = "context";
  for (const line of lines) {
    if (line.kind === "del") {
      if (adds.length > 0) flush();
      dels.push(line);
    } else if (line.kind === "add") adds.push(line);
    else if (line.kind === "no-newline") {
      if (last === "del") dels.push(line);
      else if (last === "add") adds.push(line);
      else {
        flush();
        rows.push({ left: line, right: line });
      }
      continue;
    } else {
      flush();
      rows.push({ left: line, right: line });
    }
    last = line.kind;
  }
  flush();
  return rows;
}
