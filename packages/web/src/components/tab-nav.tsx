import { useHref } from "../layout/frame.js";
import type { IconName } from "../static/icons.js";
import { Icon } from "./icon.js";

/** One tab of a page's own tab bar. */
export interface TabLink {
  readonly label: string;
  readonly path: string;
  readonly icon?: IconName;
  readonly count?: number;
  readonly current: boolean;
}

/** A page's tab bar: links, the current one marked for assistive technology. */
export function TabNav(props: { label: string; tabs: readonly TabLink[] }) {
  const href = useHref();
  return (
    <nav class="tabs" aria-label={props.label}>
      {props.tabs.map((t) => (
        <a href={href(t.path)} aria-current={t.current ? "page" : undefined}>
          {t.icon ? <Icon name={t.icon} /> : null} {t.label}
          {t.count !== undefined ? <span class="counter">{t.count}</span> : null}
        </a>
      ))}
    </nav>
  );
}
