import { useHref } from "./frame.js";

/** One step of a trail: a link, or (the last one) the page itself. */
export interface Crumb {
  readonly label: string;
  readonly path?: string;
}

/** Where the page sits: a list of links, the current page last and marked as such. */
export function Breadcrumbs(props: { crumbs: readonly Crumb[] }) {
  const href = useHref();
  if (props.crumbs.length === 0) return null;
  const last = props.crumbs.length - 1;
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {props.crumbs.map((crumb, i) => (
          <li>
            {i === last || crumb.path === undefined ? (
              <span aria-current={i === last ? "page" : undefined}>{crumb.label}</span>
            ) : (
              <a href={href(crumb.path)}>{crumb.label}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
