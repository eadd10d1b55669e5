import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKiln } from "./helpers/run-kiln.js";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-cache-"));
  await writeFile(join(work, "main.ts"), 'import { twice } from "./twice.ts";\nconsole.log(twice(21));\n');
  await writeFile(join(work, "twice.ts"), "export const twice = (n: number): number => n * 2;\n");
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The `--debug` log lines of one command, e.g. every CODE_FETCH_RES the host sent. */
const linesOf = (stderr: string, command: string) =>
  stderr.split("\n").filter((line) => line.includes(`] ${command} `) || line.endsWith(`] ${command}`));
/** The modules the host compiled in a run (a cache miss), from its --debug log. */
const compiledIn = (stderr: string) =>
  stderr
    .split("\n")
    .map((line) => /^\[debug\] compiled (.+)$/.exec(line)?.[1])
    .filter((name) => name !== undefined);

const entriesOf = async (cache: string) => (await readdir(join(cache, "gen"))).sort();

describe("the compile cache", () => {
  const cache = () => join(work, "cache");
  const run = () => runKiln(["--debug", "--cachedir", cache(), "main.ts"], work);

  it("is filled by the host on the first run; CODE_FETCH_RES always carries the output", async () => {
    const first = await run();
    expect(first.stdout).toBe("42\n");
    expect(first.code).toBe(0);
    expect(compiledIn(first.stderr)).toEqual([join(work, "main.ts"), join(work, "twice.ts")]);
    const fetched = linesOf(first.stderr, "CODE_FETCH_RES");
    expect(fetched).toHaveLength(2);
    for (const line of fetched) expect(line).toMatch(/code_fetch_res_output_code=/);
    // The runtime never sends compiled code: the host compiles and caches on its own.
    expect(linesOf(first.stderr, "CODE_CACHE")).toEqual([]);
    const files = await entriesOf(cache());
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^[0-9a-f]{64}\.js$/);
  });

  it("is used on the second run: nothing is compiled", async () => {
    const second = await run();
    expect(second.stdout).toBe("42\n");
    expect(compiledIn(second.stderr)).toEqual([]);
  });

  it("misses for a module whose source changed, and only for it", async () => {
    await writeFile(join(work, "twice.ts"), "export const twice = (n: number): number => n + n + 1;\n");
    const third = await run();
    expect(third.stdout).toBe("43\n");
    expect(compiledIn(third.stderr)).toEqual([join(work, "twice.ts")]);
  });

  it("detects an entry changed on disk, compiles it again and runs the honest output", async () => {
    let changed = 0;
    for (const file of await entriesOf(cache())) {
      const path = join(cache(), "gen", file);
      const entry = await readFile(path, "utf8");
      // What an attacker with write access to the cache would change: the main module prints
      // something else, the helper returns something else.
      const tampered = entry
        .replace("console.log(", 'console.log("tampered"), console.log(')
        .replace("n + n + 1", "666");
      if (tampered === entry) continue; // the entry of twice.ts's first version
      await writeFile(path, tampered);
      changed++;
    }
    expect(changed).toBe(2);
    const fourth = await run();
    expect(fourth.stdout).toBe("43\n");
    expect(compiledIn(fourth.stderr).sort()).toEqual([join(work, "main.ts"), join(work, "twice.ts")]);
    expect(fourth.stderr).toMatch(/does not match its header; compiling again/);
    const fifth = await run();
    expect(compiledIn(fifth.stderr)).toEqual([]);
  });

  it("is written even when the script exits at once, with no temporary file left", async () => {
    await writeFile(join(work, "quick.ts"), 'import { exit } from "kiln";\nexit(5);\n');
    const dir = join(work, "quick-cache");
    const result = await runKiln(["--cachedir", dir, "quick.ts"], work);
    expect(result.code).toBe(5);
    expect(await entriesOf(dir)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.js$/)]);
  });
});
