interface Token {
  readonly text: string;
  readonly at: number;
}

const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|\S/g;

function tokens(line: string): Token[] {
  return [...line.matchAll(TOKEN)].map((match) => ({ text: match[0], at: match.index }));
}

/**
 * Maps a column of a compiled line back to the same line of the source. sucrase keeps every
 * line where it was but removes type annotations and renames imported names, so the two lines
 * share most tokens: they are aligned by longest common subsequence and the column moves with
 * the nearest shared token at or before it. Columns are 0-based.
 */
export function alignColumn(sourceLine: string, compiledLine: string, column: number): number {
  if (sourceLine === compiledLine) return column;
  const source = tokens(sourceLine);
  const compiled = tokens(compiledLine);
  if (source.length * compiled.length > 250_000) return Math.min(column, sourceLine.length);
  // lcs[i][j]: length of the longest common subsequence of compiled[i..] and source[j..].
  const lcs = Array.from({ length: compiled.length + 1 }, () => new Uint16Array(source.length + 1));
  for (let i = compiled.length - 1; i >= 0; i--) {
    for (let j = source.length - 1; j >= 0; j--) {
      lcs[i]![j] =
        compiled[i]!.text === source[j]!.text
          ? lcs[i + 1]![j + 1]! + 1
          : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const partner = new Map<Token, Token>();
  for (let i = 0, j = 0; i < compiled.length && j < source.length; ) {
    if (compiled[i]!.text === source[j]!.text && lcs[i]![j] === lcs[i + 1]![j + 1]! + 1) {
      partner.set(compiled[i]!, source[j]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  // The compiled token at the column: if it is shared, keep the offset inside it; if sucrase
  // inserted it (say the "_mod." of a renamed import), use the next shared token's position.
  let at = compiled.findLastIndex((token) => token.at <= column);
  if (at === -1) at = 0;
  const here = compiled[at];
  // sucrase calls an imported function as "(0, _mod.name)(args)", where V8 reports the "(" of
  // the arguments; the source's "name(args)" is reported at "name", so point there.
  const before = compiled[at - 1];
  const callee = compiled[at - 2];
  if (here?.text === "(" && before?.text === ")" && !partner.has(before) && callee && partner.has(callee)) {
    return partner.get(callee)!.at;
  }
  const match = here && partner.get(here);
  if (here && match) return match.at + Math.min(column - here.at, here.text.length - 1);
  // ... and as "_mod.name.call(void 0, args)", where V8 reports "call": point at "name".
  if (before?.text === "." && callee && partner.has(callee)) return partner.get(callee)!.at;
  for (let k = at + 1; k < compiled.length; k++) {
    const next = partner.get(compiled[k]!);
    if (next) return next.at;
  }
  for (let k = at - 1; k >= 0; k--) {
    const previous = partner.get(compiled[k]!);
    if (previous) return previous.at + previous.text.length;
  }
  return Math.min(column, sourceLine.length);
}
