#!/usr/bin/env node
// What highlighting a 5,000-line file costs on the server (the code pages' worst ordinary case),
// against escaping the same text without highlighting, measured in the same run: highlight.js's
// common build, the cut into lines, and a cache hit (the page's second visit).
// Needs `pnpm build` first (imports packages/web/dist).
//   node bench/web/highlight.mjs [--lines 5000] [--runs 5]
import { createRequire } from "node:module";
import { escapeHtml, highlightLines, splitLines } from "../../packages/web/dist/components/code/highlight.js";

// highlight.js as the web package resolves it (pnpm keeps it out of the root's node_modules).
const hljs = createRequire(new URL("../../packages/web/package.json", import.meta.url))(
  "highlight.js/lib/common",
);

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const LINES = arg("--lines", 5000);
const RUNS = arg("--runs", 5);

// TypeScript of a realistic mix: comments, strings, generics, template literals.
const block = [
  "/** A documented function with a generic. */",
  "export function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {",
  "  const out = {} as Pick<T, K>;",
  "  for (const key of keys) out[key] = obj[key]; // copy",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text, not a template
  '  console.log(`picked ${keys.length} keys from "${String(obj)}"`);',
  "  return out;",
  "}",
  "",
];
const text = Array.from({ length: LINES }, (_, i) => block[i % block.length]).join("\n");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

const plain = [];
const cold = [];
const warm = [];
for (let run = 0; run < RUNS; run++) {
  plain.push(time(() => splitLines(escapeHtml(text))));
  // What a cache miss costs (the pages' highlightLines does this, up to MAX_HIGHLIGHT_SIZE).
  cold.push(
    time(() => splitLines(hljs.highlight(text, { language: "typescript", ignoreIllegals: true }).value)),
  );
  highlightLines(`bench-${run}`, "big.ts", text);
  warm.push(time(() => highlightLines(`bench-${run}`, "big.ts", text)));
}
const lines = splitLines(hljs.highlight(text, { language: "typescript", ignoreIllegals: true }).value);
console.log(`${LINES} lines, ${text.length} bytes, ${RUNS} runs (median ms)`);
console.log(`escape only:          ${median(plain).toFixed(1)} ms`);
console.log(
  `highlight (miss):     ${median(cold).toFixed(1)} ms (${(median(cold) / median(plain)).toFixed(1)}x escape)`,
);
console.log(`highlight (cache hit): ${median(warm).toFixed(3)} ms`);
console.log(`HTML: ${lines.join("\n").length} bytes for ${lines.length} lines`);
