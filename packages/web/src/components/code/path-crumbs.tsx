import { useHref } from "../../layout/frame.js";
import { type CodeRef, codePath } from "../../routes/repo/code-paths.js";

/**
 * Where a tree or file sits: the repository's name (the root of the tree at this ref), then each
 * directory as a link, the last part as the current page.
 */
export function PathCrumbs(props: { owner: string; repo: string; ref: CodeRef; path: string }) {
  const href = useHref();
  const parts = props.path.split("/").filter(Boolean);
  const root = codePath(props.owner, props.repo, "src", props.ref);
  return (
    <nav class="path-crumbs" aria-label="Path">
      <ol>
        <li>
          {parts.length === 0 ? (
            <span aria-current="page">{props.repo}</span>
          ) : (
            <a href={href(root)}>{props.repo}</a>
          )}
        </li>
        {parts.map((part, i) => (
          <li>
            {i === parts.length - 1 ? (
              <span aria-current="page">{part}</span>
            ) : (
              <a
                href={href(
                  codePath(props.owner, props.repo, "src", props.ref, parts.slice(0, i + 1).join("/")),
                )}
              >
                {part}
              </a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
