const UNITS: readonly [number, string][] = [
  [365 * 24 * 3600, "year"],
  [30 * 24 * 3600, "month"],
  [7 * 24 * 3600, "week"],
  [24 * 3600, "day"],
  [3600, "hour"],
  [60, "minute"],
];

/** "3 days ago", computed on the server (pages need no script to show it). */
export function ago(date: Date, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
  for (const [size, unit] of UNITS) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}

/** A moment, shown relative to now, with the exact time as its machine-readable value and tooltip. */
export function TimeAgo(props: { date: Date }) {
  const iso = props.date.toISOString();
  return (
    <time datetime={iso} title={iso.replace("T", " ").replace(/\.\d+Z$/, " UTC")}>
      {ago(props.date)}
    </time>
  );
}
