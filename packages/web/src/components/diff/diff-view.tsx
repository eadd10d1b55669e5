import type { DiffLimits, ParsedDiff } from "@kiln/service";
import { useHref } from "../../layout/frame.js";
import { withQuery } from "../../urls.js";
import { DiffFileView, type DiffStyle, type InlineComments } from "./diff-file.js";

/** The diff style a request asks for (`?style=split`, Forgejo's parameter); unified otherwise. */
export function diffStyleOf(value: string): DiffStyle {
  return value === "split" ? "split" : "unified";
}

/**
 * A whole diff (the commit page, a pull request's files): how many files changed with how many
 * lines, links between the unified and the split layout, a note when the bounds cut it, a list of
 * the files and each file. Rendered on the server only: the parsed diff is escaped by `hono/jsx`.
 */
export function DiffView(props: {
  diff: ParsedDiff;
  style: DiffStyle;
  /** The page's path, for the layout links. */
  path: string;
  limits: DiffLimits;
  comments?: InlineComments;
}) {
  const href = useHref();
  const { diff, style } = props;
  const files = diff.files.length;
  return (
    <div class="diff">
      <div class="diff-toolbar">
        <p>
          <strong>
            {files}
            {diff.incomplete ? "+" : ""} changed file{files === 1 ? "" : "s"}
          </strong>{" "}
          with <span class="diff-stat-add">{diff.additions} additions</span> and{" "}
          <span class="diff-stat-del">{diff.deletions} deletions</span>
        </p>
        <nav class="button-row" aria-label="Diff layout">
          <a
            class="button button-small"
            href={href(props.path)}
            aria-current={style === "unified" ? "page" : undefined}
          >
            Unified
          </a>
          <a
            class="button button-small"
            href={href(withQuery(props.path, { style: "split" }))}
            aria-current={style === "split" ? "page" : undefined}
          >
            Split
          </a>
        </nav>
      </div>
      {diff.incomplete ? (
        <p class="notice">This diff is too large: only its first {props.limits.maxFiles} files are shown.</p>
      ) : null}
      {files === 0 ? <p class="empty">No changes.</p> : null}
      {files > 1 ? (
        <details class="diff-index">
          <summary>Files</summary>
          <ol>
            {diff.files.map((file, i) => (
              <li>
                <a href={`#diff-${i}`}>{file.name}</a> <span class="diff-stat-add">+{file.additions}</span>{" "}
                <span class="diff-stat-del">−{file.deletions}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {diff.files.map((file, i) => (
        <DiffFileView
          file={file}
          index={i}
          style={style}
          {...(props.comments ? { comments: props.comments } : {})}
        />
      ))}
    </div>
  );
}
