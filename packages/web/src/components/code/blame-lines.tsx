import { raw } from "hono/html";
import { ago } from "../time-ago.js";
import { escapeHtml } from "./highlight.js";

/** A run of lines one commit last changed, as the blame page shows it. */
export interface BlameRun {
  readonly line: number;
  readonly count: number;
  readonly sha: string;
  readonly summary: string;
  readonly author: string;
  /** Seconds since the Unix epoch. */
  readonly time: number;
}

/**
 * A file's lines with, at the start of each run, the commit that last changed it (its summary
 * linking to the commit, its author and when). Rows carry `id="L{n}"` as on the file page. Built
 * as one string, as {@link CodeLines}, since a file has thousands of rows.
 */
export function BlameLines(props: {
  lines: readonly string[];
  runs: readonly BlameRun[];
  commitHref: (sha: string) => string;
  label: string;
}) {
  const starts = new Map(props.runs.map((run) => [run.line, run] as const));
  const rows: string[] = [];
  for (let i = 0; i < props.lines.length; i++) {
    const n = i + 1;
    const run = starts.get(n);
    const info = run
      ? `<a href="${escapeHtml(props.commitHref(run.sha))}">${escapeHtml(run.summary || run.sha.slice(0, 10))}</a><span class="muted"> ${escapeHtml(run.author)}, ${ago(new Date(run.time * 1000))}</span>`
      : "";
    rows.push(
      `<tr id="L${n}"${run ? ' class="blame-start"' : ""}><td class="blame-info">${info}</td><td class="line-num"><a href="#L${n}">${n}</a></td><td class="line-code"><code>${props.lines[i]}</code></td></tr>`,
    );
  }
  return raw(
    `<div class="code-view"><table class="code hljs blame" aria-label="${escapeHtml(props.label)}"><tbody>${rows.join("")}</tbody></table></div>`,
  );
}
