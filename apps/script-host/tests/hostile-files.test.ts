import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKiln } from "./helpers/run-kiln.js";

/**
 * Hostile scripts against the file system: a script may load local modules only from its own
 * folder tree unless --allow-read says otherwise, whatever it does to the built-ins the runtime
 * uses, and a denial names the flag without reading (or printing) the file.
 */
let work: string;
let app: string;
let outside: string;
const SECRET = "SECRETWORD";

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-hostile-files-"));
  app = join(work, "app");
  outside = join(work, "outside");
  await mkdir(join(app, "lib"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, "word.js"), `${SECRET}\n`);
  await writeFile(
    join(outside, "lib.js"),
    `console.log("outside evaluated: ${SECRET}");\nexport const x = 1;\n`,
  );
  await writeFile(join(app, "lib", "inside.ts"), 'export const inside: string = "inside ok";\n');
  await symlink(join(outside, "lib.js"), join(app, "lib", "link.js"));
  await symlink(outside, join(app, "outside-dir"));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** A script that tries each specifier with a dynamic import and prints what happened. */
const attempts = (specifiers: readonly string[], prelude = "") => `${prelude}
const specifiers: string[] = ${JSON.stringify(specifiers)};
for (const spec of specifiers) {
  try {
    await import(spec);
    console.log("LOADED", spec);
  } catch (error) {
    console.log("refused", spec, String((error as Error)?.name), String((error as Error)?.message));
  }
}
`;

async function run(script: string, flags: string[] = []) {
  const name = `s${Math.random().toString(36).slice(2)}.ts`;
  await writeFile(join(app, name), script);
  const result = await runKiln(["--cachedir", join(work, "cache"), ...flags, name], app);
  return { ...result, all: result.stdout + result.stderr };
}

describe("local modules", () => {
  it("load from the script's folder tree", async () => {
    const result = await run(attempts(["./lib/inside.ts"]));
    expect(result.stdout).toBe("LOADED ./lib/inside.ts\n");
  });

  it("outside it are refused with PermissionDenied naming --allow-read, and never read", async () => {
    const result = await run(
      attempts([
        "/etc/passwd",
        "file:///etc/passwd",
        "../outside/word.js",
        "../outside/lib.js",
        `${outside}/lib.js`,
        "./lib/link.js",
        "./outside-dir/lib.js",
        "./lib/../../outside/lib.js",
        "%2E%2E/outside/lib.js",
      ]),
    );
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(9);
    for (const line of lines.filter((l) => !l.includes("%2E"))) {
      expect(line).toMatch(
        /^refused \S+ PermissionDenied Requires read access to ".+", run again with the --allow-read flag$/,
      );
    }
    // Not a path at all: a bare specifier.
    expect(lines.find((l) => l.includes("%2E"))).toMatch(/^refused \S+ TypeError relative import path/);
    expect(result.all).not.toContain(SECRET);
    expect(result.all).not.toContain("root:");
    expect(result.code).toBe(0);
  });

  it("outside it load with --allow-read, or --allow-read naming their folder", async () => {
    for (const flag of ["--allow-read", `--allow-read=${outside}`]) {
      const result = await run(attempts(["../outside/lib.js"]), [flag]);
      expect(result.stdout).toBe(`outside evaluated: ${SECRET}\nLOADED ../outside/lib.js\n`);
    }
    const other = await run(attempts(["../outside/lib.js"]), [`--allow-read=${join(work, "elsewhere")}`]);
    expect(other.stdout).toMatch(/^refused \.\.\/outside\/lib\.js PermissionDenied/);
  });

  it("stay refused whatever the script does to the built-ins first", async () => {
    const overrides = [
      "String.prototype.charCodeAt = function () { return 46; };",
      "String.prototype.startsWith = () => true; String.prototype.endsWith = () => true; String.prototype.includes = () => true;",
      "String.prototype.replace = function () { return '/etc/passwd'; }; String.prototype.slice = function () { return ''; };",
      "String.prototype.split = function () { return ['..', '..', 'etc', 'passwd']; }; String.prototype.indexOf = () => -1;",
      "Array.prototype.map = function () { return ['/etc/passwd']; }; Array.prototype.includes = () => true; Array.prototype.join = () => '/etc/passwd';",
      "RegExp.prototype.exec = () => null; RegExp.prototype.test = () => true; String.prototype.matchAll = function* () { yield ['x', '/etc/passwd']; };",
      "JSON.parse = () => ({}); JSON.stringify = () => '{}';",
      "Object.defineProperty(globalThis, 'TextEncoder', { value: class { encode() { return new Uint8Array([47, 101, 116, 99]); } } });",
      "Object.defineProperty(globalThis, 'TextDecoder', { value: class { decode() { return '/etc/passwd'; } } });",
      "Object.defineProperty(Object.prototype, 'codeFetchContainingFile', { get() { return '/'; }, set() {} });",
      "Object.defineProperty(Object.prototype, 'then', { get() { return undefined; }, configurable: true });",
      "Error.prepareStackTrace = () => { throw new Error('nope'); }; Symbol.species && Object.defineProperty(Array, Symbol.species, { get() { return Object; } });",
      "Promise.prototype.then = function () { return this; }; Reflect.apply = () => undefined;",
    ];
    for (const prelude of overrides) {
      const result = await run(attempts(["/etc/passwd", "../outside/word.js", "../outside/lib.js"], prelude));
      expect(result.all, prelude).not.toContain(SECRET);
      expect(result.all, prelude).not.toContain("root:");
      expect(result.stdout, prelude).not.toContain("LOADED");
      expect(result.signal, prelude).toBeNull();
      expect([0, 1], prelude).toContain(result.code);
    }
  });

  it("with other schemes are refused: data:, node:, npm:, jsr:", async () => {
    const result = await run(
      attempts(["data:text/javascript,console.log(1)", "node:fs", "npm:left-pad", "jsr:@std/fs"]),
    );
    for (const line of result.stdout.trim().split("\n"))
      expect(line).toMatch(/^refused \S+ TypeError unsupported scheme/);
  });

  it("larger than --max-module-size are refused before they are read", async () => {
    await writeFile(join(app, "lib", "big.js"), `export const s = "${"x".repeat(2 * 1024 * 1024)}";\n`);
    const result = await run(attempts(["./lib/big.js"]), ["--max-module-size=1"]);
    expect(result.stdout).toMatch(
      /^refused \.\/lib\/big\.js RangeError module ".*big\.js" is larger than the limit of 1048576 bytes per module \(--max-module-size\)\n$/,
    );
    const allowed = await run(attempts(["./lib/big.js"]), ["--max-module-size=3"]);
    expect(allowed.stdout).toBe("LOADED ./lib/big.js\n");
  });

  it("are the script's folder for a file: URL script, and nothing at all for a remote script", async () => {
    await writeFile(join(app, "url-entry.ts"), attempts(["../outside/lib.js", "./lib/inside.ts"]));
    const byUrl = await runKiln(
      ["--cachedir", join(work, "cache"), `file://${join(app, "url-entry.ts")}`],
      work,
    );
    expect(byUrl.stdout).toMatch(
      /^refused \.\.\/outside\/lib\.js PermissionDenied .*\nLOADED \.\/lib\/inside\.ts\n$/,
    );
    expect(byUrl.stdout + byUrl.stderr).not.toContain(SECRET);
  });

  it("never crash the host, however deeply a module nests (what an 8 MiB stack cannot take compiles on a deeper one, and the rest in a process of its own)", async () => {
    // Each nesting construct in the three places a module can be compiled (host-compiler.ts):
    // libuv's pool (8 MiB of stack), the compile thread (512 MiB), the compiler process.
    const nested = {
      "pool.js": `export const x = ${"(".repeat(200)}1${")".repeat(200)};\n`,
      "thread.js": `export const x = ${"(".repeat(6000)}1${")".repeat(6000)};\n`,
      "thread-types.ts": `export type T = ${"[".repeat(12_000)}1${"]".repeat(12_000)};\nexport const x = 1;\n`,
      "process.js": `export const x = ${"(".repeat(100_000)}1${")".repeat(100_000)};\n`,
      // Shallow, but too many units for the compile thread: the compiler process again, a new one.
      "wide.js": `export const x = [${"1,".repeat(40_000)}1];\n`,
    };
    for (const [name, source] of Object.entries(nested)) await writeFile(join(app, "lib", name), source);
    const specifiers = Object.keys(nested).map((name) => `./lib/${name}`);
    const result = await run(`${attempts(specifiers)}console.log("host alive");\n`);
    expect(result.stdout).toMatch(
      new RegExp(
        [
          "^LOADED \\./lib/pool\\.js",
          "LOADED \\./lib/thread\\.js",
          "LOADED \\./lib/thread-types\\.ts",
          "refused \\./lib/process\\.js SyntaxError the compiler crashed \\(SIGSEGV\\) on .*process\\.js; is it nested too deeply\\?.*",
          "LOADED \\./lib/wide\\.js",
          "host alive\\n$",
        ].join("\\n"),
      ),
    );
    expect(result.code).toBe(0);
  });

  it("leave nothing in the cache when refused", async () => {
    const cache = join(work, "refused-cache");
    await writeFile(join(app, "refused.ts"), attempts(["../outside/lib.js"]));
    await runKiln(["--cachedir", cache, "refused.ts"], app);
    const entries = (await readdir(join(cache, "gen"))).length;
    // Only the script itself was compiled.
    expect(entries).toBe(1);
  });
});
