import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
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

describe("the compile cache", () => {
  const cache = () => join(work, "cache");
  const run = () => runKiln(["--debug", "--cachedir", cache(), "main.ts"], work);

  it("is filled on the first run: no output in CODE_FETCH_RES, one CODE_CACHE per module", async () => {
    const first = await run();
    expect(first.stdout).toBe("42\n");
    expect(first.code).toBe(0);
    const fetched = linesOf(first.stderr, "CODE_FETCH_RES");
    expect(fetched).toHaveLength(2);
    for (const line of fetched) expect(line).not.toContain("code_fetch_res_output_code=");
    const cached = linesOf(first.stderr, "CODE_CACHE");
    expect(cached.map((line) => /code_cache_filename="([^"]+)"/.exec(line)?.[1])).toEqual([
      join(work, "main.ts"),
      join(work, "twice.ts"),
    ]);
    expect(first.stderr).toMatch(/runtime->host \[os\] CODE_CACHE/);
    const [compiler] = await readdir(join(cache(), "gen"));
    const files = await readdir(join(cache(), "gen", compiler!));
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^[0-9a-f]{64}\.js$/);
  });

  it("is used on the second run: CODE_FETCH_RES carries the output and no CODE_CACHE is sent", async () => {
    const second = await run();
    expect(second.stdout).toBe("42\n");
    const fetched = linesOf(second.stderr, "CODE_FETCH_RES");
    expect(fetched).toHaveLength(2);
    for (const line of fetched) expect(line).toMatch(/code_fetch_res_output_code=/);
    expect(linesOf(second.stderr, "CODE_CACHE")).toEqual([]);
  });

  it("misses for a module whose source changed, and only for it", async () => {
    await writeFile(join(work, "twice.ts"), "export const twice = (n: number): number => n + n + 1;\n");
    const third = await run();
    expect(third.stdout).toBe("43\n");
    const cached = linesOf(third.stderr, "CODE_CACHE");
    expect(cached).toHaveLength(1);
    expect(cached[0]).toContain(`code_cache_filename="${join(work, "twice.ts")}"`);
  });

  it("is written even when the script exits at once, with no temporary file left", async () => {
    await writeFile(join(work, "quick.ts"), 'import { exit } from "kiln";\nexit(5);\n');
    const dir = join(work, "quick-cache");
    const result = await runKiln(["--cachedir", dir, "quick.ts"], work);
    expect(result.code).toBe(5);
    const [compiler] = await readdir(join(dir, "gen"));
    expect(await readdir(join(dir, "gen", compiler!))).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.js$/)]);
  });
});
