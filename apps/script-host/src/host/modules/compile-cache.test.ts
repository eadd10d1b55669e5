import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CompileCache } from "./compile-cache.js";
import type { ModuleCompiler } from "./compiler.js";

const dir = await mkdtemp(join(tmpdir(), "kiln-compile-cache-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A compiler that counts its compiles and marks its output with its id. */
function countingCompiler(id: string): ModuleCompiler & { compiles: number } {
  return {
    id,
    compiles: 0,
    async compile(moduleName, source) {
      this.compiles++;
      return `/* ${id} ${moduleName} */ ${source.toUpperCase()}`;
    },
  };
}

describe("CompileCache", () => {
  it("compiles once per compiler, module name and source, then serves the entry", async () => {
    const compiler = countingCompiler("one");
    const cache = new CompileCache(dir, compiler);
    expect(await cache.output("/a.ts", "let a")).toEqual({ code: "/* one /a.ts */ LET A", compiled: true });
    expect(await cache.output("/a.ts", "let a")).toEqual({ code: "/* one /a.ts */ LET A", compiled: false });
    expect(compiler.compiles).toBe(1);
    expect((await cache.output("/a.ts", "let b")).compiled).toBe(true);
    expect((await cache.output("/b.ts", "let a")).compiled).toBe(true);
    const other = countingCompiler("two");
    expect(await new CompileCache(dir, other).output("/a.ts", "let a")).toEqual({
      code: "/* two /a.ts */ LET A",
      compiled: true,
    });
    expect((await readdir(join(dir, "gen"))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("detects an entry changed on disk, compiles again and replaces it", async () => {
    const compiler = countingCompiler("three");
    const lines: string[] = [];
    const cache = new CompileCache(dir, compiler, (line) => lines.push(line));
    await cache.output("/t.ts", "honest");
    const path = cache.pathOf("/t.ts", "honest");
    const entry = await readFile(path, "utf8");
    for (const tampered of [
      entry.replace("HONEST", "EVIL"),
      `${entry}\nglobalThis.evil = 1;`,
      entry.slice(0, entry.length - 3),
      entry.split("\n").slice(1).join("\n"),
      "",
    ]) {
      await writeFile(path, tampered);
      expect(await cache.output("/t.ts", "honest")).toEqual({
        code: "/* three /t.ts */ HONEST",
        compiled: true,
      });
      expect(await readFile(path, "utf8")).toBe(entry);
    }
    expect(compiler.compiles).toBe(6);
    expect(lines.filter((line) => line.includes("does not match"))).toHaveLength(5);
  });

  it("never serves an entry made for another module or source, even when copied over", async () => {
    const compiler = countingCompiler("four");
    const cache = new CompileCache(dir, compiler);
    await cache.output("/evil.ts", "evil");
    await writeFile(
      cache.pathOf("/good.ts", "good"),
      await readFile(cache.pathOf("/evil.ts", "evil"), "utf8"),
    );
    expect((await cache.output("/good.ts", "good")).code).toBe("/* four /good.ts */ GOOD");
  });

  it("writes entries whole under concurrent compiles, with no temporary file left", async () => {
    const cache = new CompileCache(dir, countingCompiler("five"));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => cache.output("/c.ts", "x".repeat(10_000))),
    );
    for (const result of results) expect(result.code).toBe(`/* five /c.ts */ ${"X".repeat(10_000)}`);
    expect((await readdir(join(dir, "gen"))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
