import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kilnRunBin, type RunResult, runNode } from "./run-kiln.js";

/** Whether peak memory can be measured here (GNU time). */
export const canMeasureMemory = existsSync("/usr/bin/time");

/** Runs kiln-run under `/usr/bin/time` and reports its peak resident memory in MiB too. */
export async function runKilnMeasured(
  args: readonly string[],
  cwd: string,
  timeoutMs?: number,
): Promise<RunResult & { peakMiB: number }> {
  const dir = await mkdtemp(join(tmpdir(), "kiln-measure-"));
  try {
    const report = join(dir, "rss");
    const result = await runNode(
      "/usr/bin/time",
      ["-o", report, "-f", "%M", process.execPath, "--no-node-snapshot", kilnRunBin, ...args],
      cwd,
      timeoutMs,
      { direct: true },
    );
    const kib = Number((await readFile(report, "utf8")).trim().split("\n").pop());
    return { ...result, peakMiB: kib / 1024 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
