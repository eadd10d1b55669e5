import { useHref } from "../layout/frame.js";
import { Icon } from "./icon.js";

/** A sort order a list offers. */
export interface SortOption {
  readonly value: string;
  readonly label: string;
}

/** A list's search form (a GET form: the results are a page that can be linked and bookmarked). */
export function ListSearch(props: {
  path: string;
  q: string;
  label: string;
  sort?: { value: string; options: readonly SortOption[] };
  hidden?: Readonly<Record<string, string>>;
}) {
  const href = useHref();
  return (
    <search>
      <form class="list-search" method="get" action={href(props.path)}>
        {Object.entries(props.hidden ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <label class="visually-hidden" for="list-q">
          {props.label}
        </label>
        <input
          id="list-q"
          type="search"
          name="q"
          value={props.q}
          placeholder={`${props.label}…`}
          maxlength={255}
        />
        {props.sort ? (
          <>
            <label class="visually-hidden" for="list-sort">
              Sort
            </label>
            <select id="list-sort" name="sort">
              {props.sort.options.map((o) => (
                <option value={o.value} selected={o.value === props.sort?.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <button type="submit" class="button">
          <Icon name="search" /> Search
        </button>
      </form>
    </search>
  );
}
