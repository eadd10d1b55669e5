// Regenerates docs/compatibility.md from the built route registry (run after `pnpm build`).
import { readFileSync, writeFileSync } from "node:fs";
import { defaultSettings } from "@kiln/domain";
import { compatibilityMarkdown, enabledRoutes, parseForgejoOperations } from "../dist/index.js";

const forgejo = parseForgejoOperations(
  readFileSync(new URL("../test/fixtures/forgejo-operations.tsv", import.meta.url), "utf8"),
);
const out = new URL("../../../docs/compatibility.md", import.meta.url);
writeFileSync(out, compatibilityMarkdown(enabledRoutes(defaultSettings("/tmp")), forgejo));
console.log(`wrote ${out.pathname}`);
