import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackServer, startServer } from "./helpers/loopback-server.js";
import { runKiln } from "./helpers/run-kiln.js";

/**
 * Hostile scripts against the network: remote modules need --allow-import (or --allow-net),
 * fetch needs --allow-net, host lists hold for every redirect hop and for imports computed
 * inside an allowed remote module, and a denied request never reaches the server.
 */
let work: string;
let allowed: LoopbackServer;
let forbidden: LoopbackServer;
const host = (server: LoopbackServer) => new URL(server.origin).host;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-hostile-net-"));
  forbidden = await startServer((_request, response) => {
    response.setHeader("content-type", "application/typescript");
    response.end('export const leaked = "reached the forbidden host";\n');
  });
  allowed = await startServer((request, response) => {
    const url = request.url ?? "/";
    if (url === "/ok.ts") {
      response.end('export const ok: string = "remote ok";\n');
    } else if (url === "/redirect.ts") {
      response.statusCode = 302;
      response.setHeader("location", `${forbidden.origin}/module.ts`);
      response.end();
    } else if (url === "/computed.ts") {
      // An allowed module that computes an import of another host at run time.
      response.end(
        `const target = ["${forbidden.origin}", "module.ts"].join("/");\nexport const result = await import(target).then(() => "LOADED", (e) => e.name + " " + e.message);\n`,
      );
    } else if (url === "/local.ts") {
      response.end('import "file:///etc/passwd";\nexport const local = 1;\n');
    } else if (url.startsWith("/p/")) {
      // Pairs of URLs an old cache layout stored in one file: the first of each pair is hostile.
      const evil = ["/p/a%2Fb.js", "/p/d//c.js", "/p/x/..%2Fy.js", "/p/q.js?v=1", "/p/s/"].includes(url);
      response.end(`export const who = "${evil ? "EVIL" : "GOOD"} ${url}";\n`);
    } else if (url === "/remote-main.js") {
      response.end(
        'for (const spec of ["/etc/passwd", "./local.js", "file:///etc/passwd"]) {\n  try { await import(spec); console.log("LOADED", spec); } catch (e) { console.log("refused", spec, e.name); }\n}\n',
      );
    } else if (url === "/data.json") {
      response.end('{"fine":true}');
    } else if (url.endsWith("/part.ts")) {
      response.end(`export const part = "${"p".repeat(700 * 1024)}";\n`);
    } else {
      response.statusCode = 404;
      response.end("no");
    }
  });
});
afterAll(async () => {
  await allowed.close();
  await forbidden.close();
  await rm(work, { recursive: true, force: true });
});

async function run(script: string, flags: string[] = []) {
  const name = `n${Math.random().toString(36).slice(2)}.ts`;
  await writeFile(join(work, name), script);
  return runKiln(["--cachedir", join(work, `cache-${name}`), ...flags, name], work);
}

const tryImport = (specifier: string, prelude = "") => `${prelude}
try {
  const module = await import(${JSON.stringify(specifier)});
  console.log("LOADED", JSON.stringify(module));
} catch (error) {
  console.log("refused", (error as Error).name, (error as Error).message);
}
`;

describe("remote modules", () => {
  it("are refused without --allow-import or --allow-net, and the server sees nothing", async () => {
    forbidden.requests.length = 0;
    const result = await run(tryImport(`${forbidden.origin}/module.ts`));
    expect(result.stdout).toBe(
      `refused PermissionDenied Requires import access to "${host(forbidden)}", run again with the --allow-import flag\n`,
    );
    expect(forbidden.requests).toEqual([]);
  });

  it("are refused the same after the script replaces the built-ins the loader used to read", async () => {
    forbidden.requests.length = 0;
    const prelude = [
      `String.prototype.matchAll = function* () { yield ['', 'http://${host(forbidden)}/module.ts']; };`,
      "String.prototype.startsWith = () => false; RegExp.prototype.test = () => false;",
    ].join("\n");
    const result = await run(tryImport(`${forbidden.origin}/module.ts`, prelude));
    expect(result.stdout).toMatch(/^refused PermissionDenied Requires import access/);
    expect(forbidden.requests).toEqual([]);
  });

  it("load from a host --allow-import names, and from any host with --allow-net", async () => {
    for (const flag of [
      `--allow-import=${host(allowed)}`,
      "--allow-import",
      "--allow-net",
      `--allow-net=${host(allowed)}`,
    ]) {
      const result = await run(tryImport(`${allowed.origin}/ok.ts`), [flag]);
      expect(result.stdout, flag).toBe('LOADED {"ok":"remote ok"}\n');
    }
  });

  it("are refused from hosts the list does not name, also for a computed import inside an allowed module", async () => {
    forbidden.requests.length = 0;
    const direct = await run(tryImport(`${forbidden.origin}/module.ts`), [`--allow-import=${host(allowed)}`]);
    expect(direct.stdout).toMatch(/^refused PermissionDenied Requires import access to "127\.0\.0\.1:\d+"/);
    const computed = await run(tryImport(`${allowed.origin}/computed.ts`), [
      `--allow-import=${host(allowed)}`,
    ]);
    expect(computed.stdout).toMatch(/^LOADED \{"result":"PermissionDenied Requires import access to \\"127/);
    expect(forbidden.requests).toEqual([]);
  });

  it("follow a redirect only to an allowed host", async () => {
    forbidden.requests.length = 0;
    const result = await run(tryImport(`${allowed.origin}/redirect.ts`), [`--allow-import=${host(allowed)}`]);
    expect(result.stdout).toMatch(/^refused PermissionDenied Requires import access to "127\.0\.0\.1:\d+"/);
    expect(forbidden.requests).toEqual([]);
    const both = await run(tryImport(`${allowed.origin}/redirect.ts`), [
      `--allow-import=${host(allowed)},${host(forbidden)}`,
    ]);
    expect(both.stdout).toBe('LOADED {"leaked":"reached the forbidden host"}\n');
  });

  it("may not import local files", async () => {
    const result = await run(tryImport(`${allowed.origin}/local.ts`), ["--allow-import", "--allow-read"]);
    expect(result.stdout).toBe(
      `refused PermissionDenied remote module "${allowed.origin}/local.ts" may not import local "file:///etc/passwd"\n`,
    );
  });
});

describe("the module cache", () => {
  it("keeps every URL apart: a hostile run cannot plant what another URL's import reads", async () => {
    const cache = join(work, "shared-cache");
    const importAll = (paths: string[]) =>
      paths.map((path) => `console.log((await import("${allowed.origin}${path}")).who);`).join("\n");
    await writeFile(
      join(work, "hostile.ts"),
      importAll(["/p/a%2Fb.js", "/p/d//c.js", "/p/x/..%2Fy.js", "/p/q.js?v=1", "/p/s/"]),
    );
    await writeFile(
      join(work, "victim.ts"),
      importAll(["/p/a/b.js", "/p/d/c.js", "/p/x/y.js", "/p/q.js_055e01147cc8cc23", "/p/s/_index"]),
    );
    const flag = `--allow-import=${host(allowed)}`;
    const hostile = await runKiln(["--cachedir", cache, flag, "hostile.ts"], work);
    expect(hostile.stdout.split("\n").filter((line) => line.startsWith("EVIL"))).toHaveLength(5);
    allowed.requests.length = 0;
    const victim = await runKiln(["--cachedir", cache, flag, "victim.ts"], work);
    expect(victim.stdout.trim().split("\n")).toEqual([
      "GOOD /p/a/b.js",
      "GOOD /p/d/c.js",
      "GOOD /p/x/y.js",
      "GOOD /p/q.js_055e01147cc8cc23",
      "GOOD /p/s/_index",
    ]);
    expect(allowed.requests).toHaveLength(5);
  });

  it("counts each URL's download against --max-download-size, however it is spelled", async () => {
    const spellings = ["/part.ts", "//part.ts", "///part.ts", "////part.ts"].map(
      (path) => `${allowed.origin}${path}`,
    );
    await writeFile(
      join(work, "spellings.ts"),
      `for (const url of ${JSON.stringify(spellings)}) {\n  try { await import(url); console.log("ok"); } catch (e) { console.log((e as Error).name); }\n}\n`,
    );
    const result = await runKiln(
      [
        "--cachedir",
        join(work, "spell-cache"),
        `--allow-import=${host(allowed)}`,
        "--max-download-size=1",
        "spellings.ts",
      ],
      work,
    );
    expect(result.stdout).toBe("ok\nRangeError\nRangeError\nRangeError\n");
  });
});

describe("a remote main script", () => {
  it("gets no local files (a rooted path is a path on its own server)", async () => {
    const result = await runKiln(
      [
        "--cachedir",
        join(work, "remote-main-cache"),
        `--allow-import=${host(allowed)}`,
        `${allowed.origin}/remote-main.js`,
      ],
      work,
    );
    expect(result.stdout).toBe(
      "refused /etc/passwd NotFound\nrefused ./local.js NotFound\nrefused file:///etc/passwd PermissionDenied\n",
    );
  });
});

describe("fetch", () => {
  const tryFetch = (url: string) => `
try {
  const response = await fetch(${JSON.stringify(url)});
  console.log("FETCHED", response.status, await response.text());
} catch (error) {
  console.log("refused", (error as Error).name, (error as Error).message);
}
`;

  it("needs --allow-net; --allow-import does not grant it", async () => {
    for (const flags of [[], ["--allow-import"]]) {
      forbidden.requests.length = 0;
      const result = await run(tryFetch(`${forbidden.origin}/x`), flags);
      expect(result.stdout).toBe(
        `refused PermissionDenied Requires net access to "${host(forbidden)}", run again with the --allow-net flag\n`,
      );
      expect(forbidden.requests).toEqual([]);
    }
  });

  it("reaches only the hosts --allow-net names, on every redirect hop", async () => {
    forbidden.requests.length = 0;
    const flags = [`--allow-net=${host(allowed)}`];
    expect((await run(tryFetch(`${allowed.origin}/data.json`), flags)).stdout).toBe(
      'FETCHED 200 {"fine":true}\n',
    );
    expect((await run(tryFetch(`${forbidden.origin}/x`), flags)).stdout).toMatch(
      /^refused PermissionDenied Requires net access/,
    );
    expect((await run(tryFetch(`${allowed.origin}/redirect.ts`), flags)).stdout).toMatch(
      /^refused PermissionDenied Requires net access/,
    );
    expect(forbidden.requests).toEqual([]);
  });

  it("leaves nothing of a refused module in the cache", async () => {
    const name = "cached.ts";
    await writeFile(join(work, name), tryImport(`${forbidden.origin}/module.ts`));
    const cache = join(work, "cache-refused");
    await runKiln(["--cachedir", cache, name], work);
    expect(await readdir(cache)).not.toContain("deps");
  });
});
