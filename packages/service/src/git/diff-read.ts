import { type DiffLimits, DiffParser, type ParsedDiff } from "./diff-parse.js";

/**
 * Reads git's diff output into a {@link ParsedDiff}, stopping git once the bounds are reached.
 * A line is held only up to a bound beyond the longest one shown (the parser marks it too long),
 * so a minified file of one huge line costs no more memory than a short one.
 */
export async function readDiff(stream: ReadableStream<Uint8Array>, limits: DiffLimits): Promise<ParsedDiff> {
  const parser = new DiffParser(limits);
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const cap = limits.maxLineCharacters + 2;
  let rest = "";
  let skipping = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      rest += decoder.decode(value, { stream: !done });
      let start = 0;
      let more = true;
      for (let nl = rest.indexOf("\n"); nl >= 0 && more; nl = rest.indexOf("\n", start)) {
        const line = rest.slice(start, nl);
        start = nl + 1;
        more = skipping ? true : parser.feed(line);
        skipping = false;
      }
      rest = rest.slice(start);
      if (!more) break;
      if (rest.length > cap) {
        // The start of an overlong line is enough to mark it too long; the rest of it is dropped.
        if (!skipping) more = parser.feed(rest.slice(0, cap));
        skipping = true;
        rest = "";
      }
      if (!more) break;
      if (done) {
        if (rest !== "" && !skipping) parser.feed(rest);
        break;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return parser.result();
}
