import { useHref } from "../../layout/frame.js";
import { type CodeRef, codePath } from "../../routes/repo/code-paths.js";
import { Icon } from "../icon.js";

/** The branches and tags a selector offers (the first of each, alphabetically) and how many there are. */
export interface RefChoices {
  readonly branches: { readonly names: readonly string[]; readonly total: number };
  readonly tags: { readonly names: readonly string[]; readonly total: number };
}

/** How many branches and tags a selector lists (the branches page lists them all). */
export const REF_CHOICES_LIMIT = 50;

/**
 * The branch and tag selector: a `<details>` menu of links to the same path at each ref, so it
 * opens and works without a script (Escape and outside clicks close it with one).
 */
export function RefSelector(props: {
  owner: string;
  repo: string;
  current: CodeRef;
  path: string;
  choices: RefChoices;
}) {
  const href = useHref();
  const { owner, repo, current, path, choices } = props;
  const label = current.kind === "commit" ? current.name.slice(0, 10) : current.name;
  const group = (kind: "branch" | "tag", names: readonly string[], total: number, title: string) =>
    names.length === 0 ? null : (
      <div class="ref-group">
        <p class="ref-group-title">{title}</p>
        <ul>
          {names.map((name) => (
            <li>
              <a
                href={href(codePath(owner, repo, "src", { kind, name }, path))}
                aria-current={kind === current.kind && name === current.name ? "true" : undefined}
              >
                {name}
              </a>
            </li>
          ))}
        </ul>
        {total > names.length ? (
          <p class="ref-group-more">
            <a
              href={href(
                `/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${kind === "branch" ? "branches" : "tags"}`,
              )}
            >
              All {total} {kind === "branch" ? "branches" : "tags"}
            </a>
          </p>
        ) : null}
      </div>
    );
  return (
    <details class="menu ref-selector">
      <summary class="button button-small">
        <Icon name={current.kind === "tag" ? "tag" : "git-branch"} />{" "}
        <span class="visually-hidden">
          {current.kind === "tag" ? "Tag" : current.kind === "commit" ? "Commit" : "Branch"}:{" "}
        </span>
        <span>{label}</span>
      </summary>
      <div class="menu-items ref-menu">
        {group("branch", choices.branches.names, choices.branches.total, "Branches")}
        {group("tag", choices.tags.names, choices.tags.total, "Tags")}
      </div>
    </details>
  );
}
