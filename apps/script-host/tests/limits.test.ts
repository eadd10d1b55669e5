import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKiln } from "./helpers/run-kiln.js";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-limits-"));
  await writeFile(join(work, "spin.ts"), 'console.log("spinning");\nwhile (true) {}\n');
  await writeFile(join(work, "spin-later.ts"), "setTimeout(() => {\n  for (;;) {}\n}, 10);\n");
  await writeFile(
    join(work, "hog.ts"),
    "const hog: number[][] = [];\nwhile (true) hog.push(new Array(100_000).fill(1));\n",
  );
  // Timers due together reach the runtime as one batch; the second one's callback runs in a task
  // the runtime starts itself, not the host.
  await writeFile(
    join(work, "hog-later.ts"),
    'setTimeout(() => console.log("first"), 0);\nsetTimeout(() => {\n  const hog: number[][] = [];\n  while (true) hog.push(new Array(100_000).fill(1));\n}, 0);\nsetTimeout(() => console.log("never"), 0);\n',
  );
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("runaway scripts", () => {
  it("an infinite loop is stopped by --timeout with a clear message", async () => {
    const result = await runKiln(["--cachedir", join(work, "c"), "--timeout", "1", "spin.ts"], work);
    expect(result.stdout).toBe("spinning\n");
    expect(result.stderr).toBe("error: script timed out after 1 s (--timeout)\n");
    expect(result.code).toBe(1);
  });

  it("a loop inside a timer callback is stopped too", async () => {
    const result = await runKiln(["--cachedir", join(work, "c"), "--timeout=0.5", "spin-later.ts"], work);
    expect(result.stderr).toBe("error: script timed out after 0.5 s (--timeout)\n");
    expect(result.code).toBe(1);
  });

  it("unbounded allocation is stopped by --memory-limit with a clear message", async () => {
    const result = await runKiln(["--cachedir", join(work, "c"), "--memory-limit", "32", "hog.ts"], work);
    expect(result.stderr).toBe("error: script exceeded the memory limit of 32 MB (--memory-limit)\n");
    expect(result.code).toBe(1);
  });

  it("so is unbounded allocation in a timer callback after the first of a batch", async () => {
    const result = await runKiln(
      ["--cachedir", join(work, "c"), "--memory-limit", "32", "hog-later.ts"],
      work,
    );
    expect(result.stdout).toBe("first\n");
    expect(result.stderr).toBe("error: script exceeded the memory limit of 32 MB (--memory-limit)\n");
    expect(result.code).toBe(1);
  });
});
