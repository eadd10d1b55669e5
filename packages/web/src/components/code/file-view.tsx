import { raw } from "hono/html";
import { useHref } from "../../layout/frame.js";
import { type CodeRef, codePath } from "../../routes/repo/code-paths.js";
import { Icon } from "../icon.js";
import { CodeLines } from "./code-lines.js";

/** What the file page shows of a file, decided by the route from its bytes. */
export type FileShown =
  | { readonly kind: "text"; readonly lines: readonly string[] }
  | { readonly kind: "markdown"; readonly html: string }
  | { readonly kind: "image"; readonly src: "raw" | "media" }
  | { readonly kind: "lfs"; readonly oid: string; readonly size: number; readonly stored: boolean }
  | { readonly kind: "binary" }
  | { readonly kind: "too-large" }
  | { readonly kind: "symlink"; readonly target: string }
  | { readonly kind: "submodule"; readonly url?: string };

/** A file and where it is. */
export interface FileViewProps {
  readonly owner: string;
  readonly repo: string;
  readonly ref: CodeRef;
  readonly path: string;
  readonly name: string;
  readonly size: number;
  readonly shown: FileShown;
  /** A Markdown file: the other view's link (`?display=source` or the rendered page). */
  readonly markdown?: { readonly source: boolean };
}

/** A byte count for people: "512 B", "1.5 KiB", "3.2 MiB". */
export function formatSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function Body(props: FileViewProps) {
  const href = useHref();
  const { shown, owner, repo, ref, path } = props;
  const rawHref = href(codePath(owner, repo, "raw", ref, path));
  const mediaHref = href(codePath(owner, repo, "media", ref, path));
  switch (shown.kind) {
    case "text":
      return <CodeLines lines={shown.lines} label={`Contents of ${props.name}`} />;
    case "markdown":
      return <div class="markup file-markup">{raw(shown.html)}</div>;
    case "image":
      return (
        <div class="file-image">
          <img src={shown.src === "media" ? mediaHref : rawHref} alt={props.name} />
        </div>
      );
    case "lfs":
      return (
        <div class="file-note">
          <p>
            Stored with Git LFS: {formatSize(shown.size)}, object <code>{shown.oid.slice(0, 16)}…</code>
          </p>
          {shown.stored ? (
            <p>
              <a href={mediaHref}>Download the file</a>
            </p>
          ) : (
            <p class="muted">
              The LFS object is not on this server; the pointer file is shown by the raw link.
            </p>
          )}
        </div>
      );
    case "binary":
      return (
        <p class="file-note">
          Binary file, not shown. <a href={rawHref}>Download it</a>.
        </p>
      );
    case "too-large":
      return (
        <p class="file-note">
          This file is too large to be shown ({formatSize(props.size)}). <a href={rawHref}>View it raw</a>.
        </p>
      );
    case "symlink":
      return (
        <p class="file-note">
          Symbolic link to <code>{shown.target}</code>
        </p>
      );
    case "submodule":
      return (
        <p class="file-note">
          Submodule
          {shown.url ? (
            <>
              {" "}
              of <code>{shown.url}</code>
            </>
          ) : null}
          .
        </p>
      );
  }
}

/**
 * A file of the tree: its name, size and line count, links to its raw bytes, its LFS object, its
 * blame and its history, and its content as {@link FileShown} says.
 */
export function FileView(props: FileViewProps) {
  const href = useHref();
  const { owner, repo, ref, path, shown } = props;
  const page = codePath(owner, repo, "src", ref, path);
  return (
    <section class="file" aria-labelledby="file-title">
      <div class="file-header">
        <h2 id="file-title" class="file-title">
          <Icon name="file" /> {props.name}
        </h2>
        <span class="muted file-facts">
          {shown.kind === "text" ? `${shown.lines.length} lines · ` : ""}
          {formatSize(props.size)}
        </span>
        <nav class="file-actions button-row" aria-label="File">
          {props.markdown ? (
            props.markdown.source ? (
              <a class="button button-small" href={href(page)}>
                Preview
              </a>
            ) : (
              <a class="button button-small" href={href(`${page}?display=source`)}>
                Source
              </a>
            )
          ) : null}
          <a class="button button-small" href={href(codePath(owner, repo, "raw", ref, path))}>
            Raw
          </a>
          {shown.kind === "lfs" && shown.stored ? (
            <a class="button button-small" href={href(codePath(owner, repo, "media", ref, path))}>
              Media
            </a>
          ) : null}
          {shown.kind === "text" || shown.kind === "markdown" ? (
            <a class="button button-small" href={href(codePath(owner, repo, "blame", ref, path))}>
              Blame
            </a>
          ) : null}
          <a class="button button-small" href={href(codePath(owner, repo, "commits", ref, path))}>
            <Icon name="history" /> History
          </a>
        </nav>
      </div>
      <Body {...props} />
    </section>
  );
}
