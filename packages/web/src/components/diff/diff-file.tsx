import type { DiffFile, DiffHunk, DiffLine } from "@kiln/service";
import type { Child } from "hono/jsx";
import { Icon } from "../icon.js";
import { splitRows } from "./split-rows.js";

/** How a diff is laid out (Forgejo's `?style=`). */
export type DiffStyle = "unified" | "split";

/**
 * Review comments shown under the line they are about: by `{path}\n{line}`, the line positive on
 * the new side and negative on the old (as review comments store it).
 */
export type InlineComments = ReadonlyMap<string, Child>;

/** The key of a line's comments in {@link InlineComments}. */
export function commentKey(path: string, line: number): string {
  return `${path}\n${line}`;
}

const MARK: Record<DiffLine["kind"], string> = { add: "+", del: "-", context: " ", "no-newline": "" };
const STATUS_LABEL: Record<DiffFile["status"], string> = {
  added: "Added",
  deleted: "Deleted",
  modified: "Modified",
  renamed: "Renamed",
  copied: "Copied",
};

function commentsOf(file: DiffFile, line: DiffLine | undefined, comments?: InlineComments): Child[] {
  if (!line || !comments) return [];
  const found: Child[] = [];
  if (line.newLine !== undefined) found.push(comments.get(commentKey(file.name, line.newLine)));
  if (line.oldLine !== undefined) found.push(comments.get(commentKey(file.name, -line.oldLine)));
  return found.filter((c) => c !== undefined && c !== null);
}

function Num(props: { n: number | undefined }) {
  return <td class="diff-num">{props.n ?? ""}</td>;
}

function Code(props: { line: DiffLine | undefined }) {
  const { line } = props;
  if (!line) return <td class="diff-code diff-empty" colSpan={2} />;
  return (
    <>
      <td class={`diff-mark diff-${line.kind}`}>{MARK[line.kind]}</td>
      <td class={`diff-code diff-${line.kind}`}>{line.text}</td>
    </>
  );
}

function UnifiedHunk(props: { file: DiffFile; hunk: DiffHunk; comments?: InlineComments }) {
  const { file, hunk } = props;
  return (
    <>
      <tr class="diff-hunk">
        <td colSpan={4}>
          {hunk.header} {hunk.section}
        </td>
      </tr>
      {hunk.lines.map((line) => {
        const notes = commentsOf(file, line, props.comments);
        return (
          <>
            <tr>
              <Num n={line.oldLine} />
              <Num n={line.newLine} />
              <Code line={line} />
            </tr>
            {notes.length > 0 ? (
              <tr class="diff-comments">
                <td colSpan={4}>{notes}</td>
              </tr>
            ) : null}
          </>
        );
      })}
    </>
  );
}

function SplitHunk(props: { file: DiffFile; hunk: DiffHunk; comments?: InlineComments }) {
  const { file, hunk } = props;
  return (
    <>
      <tr class="diff-hunk">
        <td colSpan={6}>
          {hunk.header} {hunk.section}
        </td>
      </tr>
      {splitRows(hunk.lines).map((row) => {
        const notes = [
          ...commentsOf(file, row.left, props.comments),
          ...(row.right !== row.left ? commentsOf(file, row.right, props.comments) : []),
        ];
        return (
          <>
            <tr>
              <Num n={row.left?.oldLine} />
              <Code line={row.left} />
              <Num n={row.right?.newLine} />
              <Code line={row.right} />
            </tr>
            {notes.length > 0 ? (
              <tr class="diff-comments">
                <td colSpan={6}>{notes}</td>
              </tr>
            ) : null}
          </>
        );
      })}
    </>
  );
}

/** What the file's table cannot show: binary contents, a mode change alone, an empty change. */
function FileNote(props: { file: DiffFile }) {
  const { file } = props;
  if (file.binary) return <p class="diff-note">Binary file not shown.</p>;
  if (file.hunks.length === 0 && file.incomplete)
    return <p class="diff-note">This file's diff is too large to show.</p>;
  if (file.hunks.length === 0) {
    return (
      <p class="diff-note">
        {file.status === "renamed" ? "File renamed without changes." : "No changes to show."}
      </p>
    );
  }
  return null;
}

/** One file of a diff: its header with its status and line counts, and its hunks in either style. */
export function DiffFileView(props: {
  file: DiffFile;
  index: number;
  style: DiffStyle;
  comments?: InlineComments;
}) {
  const { file, style } = props;
  const id = `diff-${props.index}`;
  const title = file.oldName && file.oldName !== file.name ? `${file.oldName} → ${file.name}` : file.name;
  const Hunk = style === "split" ? SplitHunk : UnifiedHunk;
  return (
    <section class="diff-file" id={id} aria-labelledby={`${id}-name`}>
      <header class="diff-file-header">
        <span class={`badge diff-status-${file.status}`}>{STATUS_LABEL[file.status]}</span>
        <h3 id={`${id}-name`} class="diff-file-name">
          <Icon name="file" /> {title}
        </h3>
        <span class="diff-stat">
          <span class="diff-stat-add">+{file.additions}</span>{" "}
          <span class="diff-stat-del">−{file.deletions}</span>
          <span class="visually-hidden">
            {" "}
            ({file.additions} additions, {file.deletions} deletions)
          </span>
        </span>
        {file.modeChange ? (
          <span class="muted">
            mode {file.modeChange.from} → {file.modeChange.to}
          </span>
        ) : null}
      </header>
      <FileNote file={file} />
      {file.hunks.length > 0 ? (
        <div class="table-scroll">
          <table class={`diff-table diff-${style}`}>
            <caption class="visually-hidden">Changes to {file.name}</caption>
            <thead class="visually-hidden">
              {style === "split" ? (
                <tr>
                  <th scope="col">Old line</th>
                  <th scope="col">Change</th>
                  <th scope="col">Old text</th>
                  <th scope="col">New line</th>
                  <th scope="col">Change</th>
                  <th scope="col">New text</th>
                </tr>
              ) : (
                <tr>
                  <th scope="col">Old line</th>
                  <th scope="col">New line</th>
                  <th scope="col">Change</th>
                  <th scope="col">Text</th>
                </tr>
              )}
            </thead>
            <tbody>
              {file.hunks.map((hunk) => (
                <Hunk file={file} hunk={hunk} {...(props.comments ? { comments: props.comments } : {})} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {file.incomplete && file.hunks.length > 0 ? (
        <p class="diff-note">The rest of this file's diff is too large to show.</p>
      ) : null}
    </section>
  );
}
