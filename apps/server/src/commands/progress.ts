/** How far a long task has come: `done` of `total` units (e.g. owners recounted). */
export interface ProgressUpdate {
  readonly label: string;
  readonly done: number;
  readonly total: number;
}

/** Where progress is drawn: a writable stream, and whether it is a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * A progress renderer for a stream. On a terminal it redraws one line with a bar (at most every
 * `redrawMs`, and always at the end); otherwise it prints a plain line at the start, every
 * `intervalMs`, and at the end, so logs stay readable. A new label starts a new task.
 */
export function progressRenderer(
  stream: ProgressStream,
  options: { now?: () => number; intervalMs?: number; redrawMs?: number } = {},
): (update: ProgressUpdate) => void {
  const now = options.now ?? Date.now;
  const interval = stream.isTTY ? (options.redrawMs ?? 100) : (options.intervalMs ?? 2000);
  let last = Number.NEGATIVE_INFINITY;
  let finished = false;
  let label: string | undefined;
  return (update) => {
    if (update.label !== label) {
      // Another task begins (the doctor measures the disk, then recounts): its start and end show.
      if (stream.isTTY && label !== undefined && !finished) stream.write("\n");
      label = update.label;
      last = Number.NEGATIVE_INFINITY;
      finished = false;
    }
    const complete = update.done >= update.total;
    if (finished && complete) return;
    const t = now();
    if (!complete && t - last < interval) return;
    last = t;
    finished = complete;
    if (stream.isTTY) {
      stream.write(`\r\x1b[2K${bar(update, stream.columns || 80)}${complete ? "\n" : ""}`);
    } else {
      stream.write(`${update.label}: ${update.done}/${update.total} (${percent(update)}%)\n`);
    }
  };
}

function percent(u: ProgressUpdate): number {
  return u.total <= 0 ? 100 : Math.floor((Math.min(u.done, u.total) / u.total) * 100);
}

/** `label [#########.........]  45% 450/1000`, fitted to the terminal's width. */
export function bar(u: ProgressUpdate, columns: number): string {
  const tail = ` ${String(percent(u)).padStart(3)}% ${u.done}/${u.total}`;
  const width = Math.max(10, Math.min(40, columns - u.label.length - tail.length - 4));
  const filled = Math.round((percent(u) / 100) * width);
  return `${u.label} [${"#".repeat(filled)}${".".repeat(width - filled)}]${tail}`;
}
