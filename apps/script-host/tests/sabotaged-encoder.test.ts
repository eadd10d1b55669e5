import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackServer, startServer } from "./helpers/loopback-server.js";
import { runKiln } from "./helpers/run-kiln.js";

/**
 * Scripts that break the runtime's encoder by replacing the built-ins it uses, so that what the
 * runtime sends is garbage: each call from the isolate carries its own bytes, so the host refuses
 * that message alone, the request it carried fails with an error the script sees, later messages
 * are handled as usual, and however the run ends its last words name the refused message.
 */
let work: string;
let server: LoopbackServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "kiln-sabotage-"));
  server = await startServer((_request, response) => {
    response.end("served");
  });
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** Writes a script whose `SABOTAGE` line breaks the encoder and `RESTORE` line repairs it. */
async function run(name: string, sabotage: string, body: string, flags: string[] = []) {
  const source = [
    "const slice = Uint8Array.prototype.slice;",
    "const floor = Math.floor;",
    "const assign = Object.assign;",
    `const sabotage = () => { ${sabotage} };`,
    "const restore = () => { Uint8Array.prototype.slice = slice; Math.floor = floor; Object.assign = assign; };",
    body.replaceAll("ORIGIN", server.origin),
  ].join("\n");
  await writeFile(join(work, name), source);
  return runKiln([`--allow-net=${new URL(server.origin).host}`, ...flags, name], work);
}

/** A fetch made while the encoder is broken, then one made after it is repaired. */
const fetchTwice = `
sabotage();
const broken = fetch("ORIGIN/first");
restore();
try { await broken; console.log("first: answered"); } catch (e) { console.log("first:", e.name, e.message); }
const response = await fetch("ORIGIN/second");
console.log("second:", response.status, await response.text());
`;

describe("a script that breaks the runtime's encoder", () => {
  it("a frame prefix claiming more than the batch holds: that fetch fails, the run goes on", async () => {
    // Before: the host took the claim for a message over its size limit and ended the run.
    const result = await run(
      "huge-prefix.ts",
      "Uint8Array.prototype.slice = function (...a) { const r = slice.apply(this, a); r.set([0xff, 0xff, 0x7f]); return r; };",
      fetchTwice,
    );
    expect(result.stdout).toMatch(
      /^first: ProtocolError stream ended inside a frame \(\d+ bytes left\)\nsecond: 200 served\n$/,
    );
    expect(result.stderr).not.toMatch(/larger than/);
    expect(result.stderr).toMatch(
      /note: the host refused 1 message from the runtime .* stream ended inside a frame/,
    );
    expect(result.code).toBe(0);
    expect(server.requests).toContain("/second");
    expect(server.requests).not.toContain("/first");
  });

  it("a batch cut short: that fetch fails instead of never settling", async () => {
    // Before: the script died with "top-level await promise never resolved".
    const result = await run(
      "cut-short.ts",
      "Uint8Array.prototype.slice = function (...a) { const r = slice.apply(this, a); return r.subarray(0, r.length - 1); };",
      fetchTwice,
    );
    expect(result.stdout).toMatch(
      /^first: ProtocolError stream ended inside a frame \(\d+ bytes left\)\nsecond: 200 served\n$/,
    );
    expect(result.stderr).not.toMatch(/never resolved/);
    expect(result.code).toBe(0);
  });

  it("garbage inside an intact frame: that fetch fails", async () => {
    const result = await run(
      "garbage.ts",
      "Uint8Array.prototype.slice = function (...a) { const r = slice.apply(this, a); r.fill(0xff, 1); return r; };",
      fetchTwice,
    );
    expect(result.stdout).toBe(
      "first: ProtocolError cannot decode BaseMsg: invalid varint\nsecond: 200 served\n",
    );
    expect(result.code).toBe(0);
  });

  it("a corrupt length varint (Math.floor replaced): that fetch fails", async () => {
    const result = await run(
      "varint.ts",
      "Math.floor = () => 0;",
      fetchTwice.replace("ORIGIN/first", `ORIGIN/${"x".repeat(200)}`),
    );
    expect(result.stdout).toMatch(/^first: ProtocolError stream ended inside a frame \(\d+ bytes left\)\n/);
    expect(result.stdout).toMatch(/\nsecond: 200 served\n$/);
    expect(result.code).toBe(0);
  });

  it("a field its command does not use: the host answers that fetch by its id", async () => {
    const result = await run(
      "extra-field.ts",
      "Object.assign = (target, source) => assign(target, source, { exitCode: 7 });",
      fetchTwice,
    );
    expect(result.stdout).toBe(
      "first: ProtocolError exit_code is set but FETCH_REQ does not use it\nsecond: 200 served\n",
    );
    expect(result.code).toBe(0);
  });

  it("something that is not bytes: refused alone, and exit() throws instead of hanging", async () => {
    // Before: the host ended the run at once ("the runtime sent something that is not bytes").
    const result = await run(
      "not-bytes.ts",
      'Uint8Array.prototype.slice = () => "not bytes";',
      `import { exit } from "kiln";
sabotage();
try { exit(3); } catch (e) { restore(); console.log("exit:", e.name, e.message); }
const response = await fetch("ORIGIN/after");
console.log("after:", response.status);
exit(5);
`,
    );
    expect(result.stdout).toBe("exit: ProtocolError a batch must be bytes\nafter: 200\n");
    expect(result.code).toBe(5);
  });

  it("a lost timer: the run ends naming the refused message, not only the await", async () => {
    const result = await run(
      "lost-timer.ts",
      "Uint8Array.prototype.slice = function (...a) { const r = slice.apply(this, a); return r.subarray(0, r.length - 1); };",
      `sabotage();
const timer = new Promise((resolve) => setTimeout(resolve, 10));
await Promise.resolve();
restore();
await timer;
console.log("unreachable");
`,
    );
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /error: top-level await promise never resolved\nnote: the host refused 1 message from the runtime during this run, the first with ProtocolError: stream ended inside a frame/,
    );
    expect(result.code).toBe(1);
  });

  it("a broken request (import): the import fails with the reason, a later one works", async () => {
    await writeFile(join(work, "dep.ts"), 'export const dep = "dep loaded";\n');
    const result = await run(
      "broken-import.ts",
      "Uint8Array.prototype.slice = function (...a) { const r = slice.apply(this, a); r.fill(0xff); return r; };",
      `sabotage();
let failed;
try { await import("./dep.ts"); } catch (e) { failed = e; }
restore();
console.log("import:", failed?.name, failed?.message);
console.log((await import("./dep.ts")).dep);
`,
    );
    expect(result.stdout).toBe("import: ProtocolError cannot decode BaseMsg: invalid varint\ndep loaded\n");
    expect(result.code).toBe(0);
  });
});
