/** What a reaction's name shows (Forgejo's default `[ui] REACTIONS`); others show as `:name:`. */
const EMOJI: Readonly<Record<string, string>> = {
  "+1": "👍",
  "-1": "👎",
  laugh: "😆",
  hooray: "🎉",
  confused: "😕",
  heart: "❤️",
  rocket: "🚀",
  eyes: "👀",
};

/** The reactions to a post, counted per kind (read-only: reacting needs a form of its own). */
export function Reactions(props: { counts: readonly { type: string; count: number }[] | undefined }) {
  if (!props.counts || props.counts.length === 0) return null;
  return (
    <ul class="reactions" aria-label="Reactions">
      {props.counts.map((r) => (
        <li class="reaction" title={`${r.count} × ${r.type}`}>
          <span aria-hidden="true">{EMOJI[r.type] ?? `:${r.type}:`}</span>{" "}
          <span class="visually-hidden">{`${r.type}:`}</span> {r.count}
        </li>
      ))}
    </ul>
  );
}
