/** Linguist's colours of common languages; others get a grey (the name is always written beside it). */
const COLOURS: Readonly<Record<string, string>> = {
  TypeScript: "#3178c6",
  JavaScript: "#f1e05a",
  Go: "#00add8",
  Rust: "#dea584",
  Python: "#3572a5",
  Java: "#b07219",
  Kotlin: "#a97bff",
  C: "#555555",
  "C++": "#f34b7d",
  "C#": "#178600",
  Ruby: "#701516",
  PHP: "#4f5d95",
  Shell: "#89e051",
  HTML: "#e34c26",
  CSS: "#663399",
  SCSS: "#c6538c",
  Markdown: "#083fa1",
  Swift: "#f05138",
  Dockerfile: "#384d54",
  Makefile: "#427819",
  Vue: "#41b883",
  Svelte: "#ff3e00",
  Lua: "#000080",
  Haskell: "#5e5086",
  Elixir: "#6e4a7e",
  Nix: "#7e7eff",
};
const OTHER = "#8b949e";

/** Languages by share, largest first, with at most `max` named and the rest as "Other". */
export function languageShares(
  bytes: Readonly<Record<string, number>>,
  max = 8,
): { readonly name: string; readonly percent: number; readonly colour: string }[] {
  const total = Object.values(bytes).reduce((a, b) => a + b, 0);
  if (total <= 0) return [];
  const sorted = Object.entries(bytes)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const named = sorted
    .slice(0, max)
    .map(([name, n]) => ({ name, percent: (n * 100) / total, colour: COLOURS[name] ?? OTHER }));
  const rest = sorted.slice(max).reduce((a, [, n]) => a + n, 0);
  return rest > 0 ? [...named, { name: "Other", percent: (rest * 100) / total, colour: OTHER }] : named;
}

/**
 * The languages bar of a repository's home: an SVG of proportional segments (drawn with
 * attributes, since the policy forbids inline styles) and the list of names with percentages,
 * which is what assistive technology reads.
 */
export function LanguageBar(props: { bytes: Readonly<Record<string, number>> }) {
  const shares = languageShares(props.bytes);
  if (shares.length === 0) return null;
  let x = 0;
  return (
    <section class="languages-section" aria-labelledby="languages-title">
      <h2 id="languages-title" class="visually-hidden">
        Languages
      </h2>
      <svg
        class="languages"
        width="100%"
        height="8"
        viewBox="0 0 100 1"
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        {shares.map((s) => {
          const rect = (
            <rect x={x.toFixed(3)} y="0" width={s.percent.toFixed(3)} height="1" fill={s.colour} />
          );
          x += s.percent;
          return rect;
        })}
      </svg>
      <ul class="languages-list">
        {shares.map((s) => (
          <li>
            <svg width="8" height="8" viewBox="0 0 2 2" aria-hidden="true">
              <circle cx="1" cy="1" r="1" fill={s.colour} />
            </svg>{" "}
            <strong>{s.name}</strong> <span class="muted">{s.percent.toFixed(1)}%</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
