import { raw } from "hono/html";

/**
 * A file's lines as a table, one row per line with `id="L{n}"`, so `#L10` lands on line 10 without
 * any script (and `:target` marks it); `app.js` adds ranges (`#L10-L20`, shift-click). The lines
 * are HTML already (highlighted and escaped by {@link highlightLines}); the table is built as one
 * string because a file has thousands of rows.
 */
export function CodeLines(props: { lines: readonly string[]; label: string }) {
  const rows: string[] = [];
  for (let i = 0; i < props.lines.length; i++) {
    const n = i + 1;
    rows.push(
      `<tr id="L${n}"><td class="line-num"><a href="#L${n}">${n}</a></td><td class="line-code"><code>${props.lines[i]}</code></td></tr>`,
    );
  }
  const label = props.label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return raw(
    `<div class="code-view"><table class="code hljs" aria-label="${label}"><tbody>${rows.join("")}</tbody></table></div>`,
  );
}
