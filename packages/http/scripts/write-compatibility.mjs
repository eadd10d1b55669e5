// Regenerates docs/compatibility.md from the built route registry (run after `pnpm build`): every
// operation Kiln implements, including those a setting switches off by default (as Forgejo does).
import { readFileSync, writeFileSync } from "node:fs";
import { allRoutes, compatibilityMarkdown, parseForgejoOperations } from "../dist/index.js";

const forgejo = parseForgejoOperations(
  readFileSync(new URL("../test/fixtures/forgejo-operations.tsv", import.meta.url), "utf8"),
);
const out = new URL("../../../docs/compatibility.md", import.meta.url);
writeFileSync(out, compatibilityMarkdown(allRoutes, forgejo));
console.log(`wrote ${out.pathname}`);
