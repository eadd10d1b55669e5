import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * One temporary directory per test run for every work path and clone the end-to-end tests make
 * (each `kiln web` work path holds a ~40 MB PGlite directory), removed when the run ends.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "kiln-e2e-run-"));
  process.env.KILN_E2E_TMP = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
