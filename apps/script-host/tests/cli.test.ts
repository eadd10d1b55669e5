import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kilnRunBin, runKiln } from "./helpers/run-kiln.js";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-cli-"));
  await writeFile(join(work, "hello.ts"), 'console.log("hi");\n');
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("kiln-run's command line", () => {
  it("--help prints the usage and every flag", async () => {
    const result = await runKiln(["--help"], work);
    expect(result.code).toBe(0);
    for (const flag of [
      "--allow-net",
      "--reload",
      "--cachedir",
      "--debug",
      "--memory-limit",
      "--timeout",
      "--help",
    ]) {
      expect(result.stdout).toContain(flag);
    }
  });

  it("rejects an unknown flag and a missing script with exit code 2", async () => {
    const unknown = await runKiln(["--allow-everything", "hello.ts"], work);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("kiln-run: unknown flag --allow-everything (see kiln-run --help)\n");
    const none = await runKiln([], work);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no script given");
  });

  it("reports a script that does not exist and exits 1", async () => {
    const result = await runKiln(["--cachedir", join(work, "c"), "nope.ts"], work);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `error: Uncaught NotFound: cannot find module "${join(work, "nope.ts")}"`,
    );
  });

  it("runs a script given by absolute path from another directory", async () => {
    const result = await runKiln(["--cachedir", join(work, "c"), join(work, "hello.ts")], tmpdir());
    expect(result.stdout).toBe("hi\n");
    expect(result.code).toBe(0);
  });

  it("keeps going without crashing when its stdout reader goes away", async () => {
    await writeFile(join(work, "chatty.ts"), 'for (let i = 0; i < 50_000; i++) console.log("line", i);\n');
    const child = spawn(
      process.execPath,
      ["--no-node-snapshot", kilnRunBin, "--cachedir", join(work, "c"), "chatty.ts"],
      {
        cwd: work,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
