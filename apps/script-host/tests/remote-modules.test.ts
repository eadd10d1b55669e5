import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depsPathOf } from "../src/host/modules/remote-cache.js";
import { type LoopbackServer, startServer } from "./helpers/loopback-server.js";
import { runKiln } from "./helpers/run-kiln.js";

const modules: Record<string, string> = {
  "/mod/entry.ts":
    'import { a } from "./a.ts";\nimport { b } from "./sub/b.ts";\nexport const entry: string = a + b;\n',
  "/mod/a.ts": 'import { shared } from "./shared.ts";\nexport const a: string = "a" + shared;\n',
  "/mod/sub/b.ts": 'import { shared } from "../shared.ts";\nexport const b: string = "b" + shared;\n',
  "/mod/shared.ts": 'console.log("shared evaluated");\nexport const shared = 1;\n',
};

let server: LoopbackServer;
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-remote-"));
  server = await startServer((request, response) => {
    const body = modules[request.url ?? ""];
    response.statusCode = body === undefined ? 404 : 200;
    response.end(body ?? "no such module");
  });
  await writeFile(
    join(work, "main.ts"),
    `import { entry } from "${server.origin}/mod/entry.ts";\nconsole.log(entry);\n`,
  );
  await writeFile(
    join(work, "missing.ts"),
    `import "${server.origin}/mod/missing.ts";\nconsole.log("never");\n`,
  );
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

const cacheDir = () => join(work, "cache");
const run = (...args: string[]) => runKiln(["--cachedir", cacheDir(), "--allow-import", ...args], work);

describe("remote modules", () => {
  it("are downloaded once each, with relative imports resolved against their URL", async () => {
    const result = await run("main.ts");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("shared evaluated\na1b1\n");
    expect([...server.requests].sort()).toEqual([
      "/mod/a.ts",
      "/mod/entry.ts",
      "/mod/shared.ts",
      "/mod/sub/b.ts",
    ]);
    const stored = await readFile(depsPathOf(cacheDir(), new URL(`${server.origin}/mod/sub/b.ts`)), "utf8");
    expect(stored).toBe(modules["/mod/sub/b.ts"]);
  });

  it("are served from the cache directory on the next run", async () => {
    server.requests.length = 0;
    const result = await run("main.ts");
    expect(result.stdout).toBe("shared evaluated\na1b1\n");
    expect(server.requests).toEqual([]);
  });

  it("are downloaded again with --reload", async () => {
    server.requests.length = 0;
    modules["/mod/shared.ts"] = 'console.log("shared evaluated");\nexport const shared = 2;\n';
    const result = await run("--reload", "main.ts");
    expect(result.stdout).toBe("shared evaluated\na2b2\n");
    expect(server.requests).toHaveLength(4);
  });

  it("fail on a non-2xx answer, which caches nothing", async () => {
    const result = await run("missing.ts");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`import "${server.origin}/mod/missing.ts" failed: 404`);
    await expect(
      access(depsPathOf(cacheDir(), new URL(`${server.origin}/mod/missing.ts`))),
    ).rejects.toThrow();
  });
});
