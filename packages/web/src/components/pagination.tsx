import type { PageRequest } from "@kiln/domain";
import { useHref } from "../layout/frame.js";
import { withQuery } from "../urls.js";
import { Icon } from "./icon.js";

/** The page numbers around the current one (at most seven links, first and last always). */
function numbers(current: number, last: number): (number | "gap")[] {
  const wanted = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2]);
  const pages = [...wanted].filter((n) => n >= 1 && n <= last).sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  pages.forEach((n, i) => {
    const prev = pages[i - 1];
    if (prev !== undefined && n - prev > 1) out.push("gap");
    out.push(n);
  });
  return out;
}

/**
 * Links to the other pages of a list, keeping the list's query (search, sort, tab). Nothing when
 * everything fits on one page.
 */
export function Pagination(props: {
  path: string;
  query: Readonly<Record<string, string | undefined>>;
  page: PageRequest;
  total: number;
}) {
  const href = useHref();
  const last = Math.max(1, Math.ceil(props.total / props.page.limit));
  const current = props.page.page;
  if (last <= 1 && current <= 1) return null;
  const link = (n: number) => href(withQuery(props.path, { ...props.query, page: n > 1 ? n : undefined }));
  return (
    <nav class="pagination" aria-label="Pagination">
      {current > 1 ? (
        <a href={link(Math.min(current - 1, last))} rel="prev">
          <Icon name="chevron-left" /> Previous
        </a>
      ) : (
        <span class="disabled">
          <Icon name="chevron-left" /> Previous
        </span>
      )}
      {numbers(Math.min(current, last), last).map((n) =>
        n === "gap" ? (
          <span class="gap">…</span>
        ) : n === current ? (
          <span class="current" aria-current="page">
            {n}
          </span>
        ) : (
          <a href={link(n)} aria-label={`Page ${n}`}>
            {n}
          </a>
        ),
      )}
      {current < last ? (
        <a href={link(current + 1)} rel="next">
          Next <Icon name="chevron-right" />
        </a>
      ) : (
        <span class="disabled">
          Next <Icon name="chevron-right" />
        </span>
      )}
    </nav>
  );
}
