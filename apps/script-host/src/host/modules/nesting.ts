/**
 * How deeply a module can nest, bounded from its text alone, so that the host can tell which
 * modules SWC can compile on a thread of known stack size without overflowing it.
 *
 * SWC parses and transforms recursively: each level of nesting costs stack, and a stack overflow
 * in native code kills the process. Every level of a syntax tree needs at least one token of its
 * own, and every token is at least one "unit" as counted here: a run of word characters
 * (`[A-Za-z0-9_$]`) or any other character that is not ASCII white space. Nothing is skipped,
 * not even the insides of comments, strings or regular expressions, so no input can hide
 * nesting from the count (it can only make the count larger than the real depth); non-ASCII
 * characters count one each, so that a non-ASCII space cannot join two keywords into one run.
 *
 * Measured with SWC 1.16.22 on this host's compile options (TypeScript and JavaScript, JSX,
 * systemjs output, source maps), about 80 nesting constructs — brackets, tuple and literal types,
 * generics, unary and binary chains, arrow functions, classes, templates, JSX, statements, each
 * closed and unclosed — overflowed an 8 MiB stack at no less than 2,350 units: at most 3.5 KiB
 * of stack per unit (the worst: `[` in a type, `type T = [[[[…`). The limits below allow 16 KiB
 * per unit, four and a half times that.
 */
export const STACK_BYTES_PER_UNIT = 16 * 1024;

/**
 * Units of `source` (see above), counting no further than `stopAt`: the result is the count, or
 * `stopAt` when there are at least that many.
 */
export function syntaxUnits(source: string, stopAt: number): number {
  let units = 0;
  let inWord = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36) {
      if (!inWord) {
        inWord = true;
        if (++units >= stopAt) return stopAt;
      }
      continue;
    }
    inWord = false;
    // ASCII white space: space, tab, line feed, vertical tab, form feed, carriage return.
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (++units >= stopAt) return stopAt;
  }
  return units;
}

/** The most units a module may have to compile on a thread of `stackBytes` bytes of stack. */
export function unitsForStack(stackBytes: number): number {
  return Math.floor(stackBytes / STACK_BYTES_PER_UNIT);
}
