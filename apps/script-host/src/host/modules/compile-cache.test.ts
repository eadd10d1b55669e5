import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CompileCache } from "./compile-cache.js";

const dir = await mkdtemp(join(tmpdir(), "kiln-compile-cache-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("CompileCache", () => {
  const cache = new CompileCache(dir, "compiler1");

  it("stores output under a hash of filename and source, per compiler", async () => {
    expect(await cache.get("/a.ts", "let a: number")).toBeUndefined();
    await cache.set("/a.ts", "let a: number", "let a");
    expect(await cache.get("/a.ts", "let a: number")).toBe("let a");
    expect(await cache.get("/a.ts", "let a: string")).toBeUndefined();
    expect(await cache.get("/b.ts", "let a: number")).toBeUndefined();
    expect(await new CompileCache(dir, "compiler2").get("/a.ts", "let a: number")).toBeUndefined();
    const files = await readdir(join(dir, "gen", "compiler1"));
    expect(files).toEqual([cache.pathOf("/a.ts", "let a: number").split("/").pop()]);
  });

  it("replaces an entry whole and leaves no temporary files", async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => cache.set("/c.ts", "src", `out ${i}`.repeat(1000))),
    );
    expect(await readFile(cache.pathOf("/c.ts", "src"), "utf8")).toMatch(/^(out \d+)+$/);
    const files = await readdir(join(dir, "gen", "compiler1"));
    expect(files.filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });
});
