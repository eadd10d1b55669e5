import type { ContentItem } from "@kiln/service";
import { useHref } from "../../layout/frame.js";
import { type CodeRef, codePath } from "../../routes/repo/code-paths.js";
import type { IconName } from "../../static/icons.js";
import { Icon } from "../icon.js";
import { TimeAgo } from "../time-ago.js";

/** What a tree listing links into. */
export interface TreeTarget {
  readonly owner: string;
  readonly repo: string;
  readonly ref: CodeRef;
}

const ICON_OF: Readonly<Record<string, IconName>> = {
  dir: "file-directory-fill",
  submodule: "file-submodule",
  symlink: "file-symlink-file",
  file: "file",
};

/** Directories first, then by name (Forgejo's order; git's is by bytes with `/` after trees). */
function sorted(items: readonly ContentItem[]): ContentItem[] {
  const rank = (i: ContentItem) => (i.entry.type === "dir" ? 0 : 1);
  return [...items].sort((a, b) => rank(a) - rank(b) || a.entry.name.localeCompare(b.entry.name));
}

/** The first line of a commit message. */
export function summaryOf(message: string): string {
  const line = message.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * A directory's entries as a table: icon and name (a link into the tree), the last commit that
 * changed each (its summary links to the commit) and when.
 */
export function TreeList(props: { target: TreeTarget; items: readonly ContentItem[]; truncated?: boolean }) {
  const href = useHref();
  const { owner, repo, ref } = props.target;
  const commitBase = `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/commit/`;
  return (
    <div class="tree">
      <table class="tree-table">
        <thead class="visually-hidden">
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Last commit</th>
            <th scope="col">Date</th>
          </tr>
        </thead>
        <tbody>
          {sorted(props.items).map(({ entry, lastCommit }) => (
            <tr>
              <th scope="row" class="tree-name">
                <Icon
                  name={ICON_OF[entry.type] ?? "file"}
                  class={entry.type === "dir" ? "tree-dir" : undefined}
                />{" "}
                {entry.type === "submodule" ? (
                  <span>
                    {entry.name} @ <code>{entry.sha.slice(0, 10)}</code>
                  </span>
                ) : (
                  <a href={href(codePath(owner, repo, "src", ref, entry.path))}>{entry.name}</a>
                )}
              </th>
              <td class="tree-commit">
                {lastCommit ? (
                  <a class="muted" href={href(`${commitBase}${lastCommit.sha}`)}>
                    {summaryOf(lastCommit.message)}
                  </a>
                ) : null}
              </td>
              <td class="tree-when">
                {lastCommit ? <TimeAgo date={new Date(lastCommit.committer.timestamp * 1000)} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.truncated ? <p class="notice">This directory has more entries than are shown.</p> : null}
    </div>
  );
}
