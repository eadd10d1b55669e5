#!/usr/bin/env node
// Benchmarks kiln-run side by side with `node` (the same programs compiled to JavaScript) and
// `deno run` (the binary shipped in the deno npm package), in one run on this machine:
//   start-up of a hello-world TS script and of a four-module TS program, cold (empty caches)
//   and cached; 10,000 timers started at once and all fired; codec encode+decode per command.
// Configurations run interleaved, one run of each per round. Prints medians, ratios to node, and
// peak memory (max RSS, via /usr/bin/time).
// Run: pnpm --filter @kiln/script-host bench [-- --iterations=N]   (after pnpm build; default 10).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const hostRequire = createRequire(join(root, "apps", "script-host", "package.json"));
const kilnBin = join(root, "apps", "script-host", "bin", "kiln-run.js");
const iterations = Number(process.argv.find((arg) => arg.startsWith("--iterations="))?.slice(13) ?? 10);
const work = mkdtempSync(join(tmpdir(), "kiln-bench-"));
const hasTime = existsSync("/usr/bin/time");

function denoBinary() {
  try {
    const denoDir = dirname(hostRequire.resolve("deno/package.json"));
    const target = { x64: "linux-x64-glibc", arm64: "linux-arm64-glibc" }[process.arch];
    const pkg = createRequire(join(denoDir, "x.js")).resolve(`@deno/${target}/package.json`);
    const bin = join(dirname(pkg), "deno");
    const probe = spawnSync(bin, ["--version"], { encoding: "utf8" });
    return probe.status === 0 ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Compiles the TypeScript programs to ESM JavaScript for node, with esbuild (types stripped). */
function toJavaScript(srcDir, outDir) {
  const { transformSync } = hostRequire("esbuild");
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(srcDir)) {
    if (!name.endsWith(".ts")) continue;
    const source = readFileSync(join(srcDir, name), "utf8").replace(/(from\s+"[^"]+)\.ts"/g, '$1.mjs"');
    const { code } = transformSync(source, { loader: "ts", format: "esm", target: "es2022" });
    writeFileSync(join(outDir, name.replace(/\.ts$/, ".mjs")), code);
  }
}

/** Runs a command once; returns wall time in ms and max RSS in MiB (when /usr/bin/time exists). */
function once(command, args, env = {}) {
  const full = hasTime ? ["/usr/bin/time", ["-f", "%M", command, ...args]] : [command, args];
  const started = performance.now();
  const result = spawnSync(full[0], full[1], { encoding: "utf8", env: { ...process.env, ...env } });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stderr}`);
  const rssKb = hasTime ? Number(result.stderr.trim().split("\n").pop()) : Number.NaN;
  return { ms, rssMb: rssKb / 1024, stdout: result.stdout };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Runs every configuration once per round, `iterations` rounds, so that each one meets the same
 * moments of the machine's drift; returns per configuration the median time, peak memory and
 * output. `configs` is a list of [label, prepare], `prepare()` giving [command, args, env].
 */
function measureInterleaved(configs) {
  const results = configs.map(([label]) => ({ label, times: [], rssMb: 0, stdout: "" }));
  for (let i = 0; i < iterations; i++) {
    configs.forEach(([, prepare], index) => {
      const [command, args, env] = prepare(i);
      const run = once(command, args, env);
      const result = results[index];
      result.times.push(run.ms);
      result.rssMb = Math.max(result.rssMb, run.rssMb);
      result.stdout = run.stdout.trim();
    });
  }
  return results.map(({ label, times, rssMb, stdout }) => ({ label, ms: median(times), rssMb, stdout }));
}

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
function table(title, rows, reference) {
  console.log(`\n${title}`);
  console.log(
    `  ${"".padEnd(34)}${"median ms".padStart(10)}${"x node".padStart(9)}${"peak MiB".padStart(10)}`,
  );
  for (const row of rows) {
    const ratio = reference ? row.ms / reference.ms : Number.NaN;
    console.log(
      `  ${row.label.padEnd(34)}${fmt(row.ms).padStart(10)}${fmt(ratio, 2).padStart(9)}${fmt(row.rssMb).padStart(10)}`,
    );
  }
}

const programs = join(here, "programs");
const js = join(work, "js");
toJavaScript(programs, js);
toJavaScript(join(programs, "four"), join(js, "four"));
const deno = denoBinary();
const denoEnv = (dir) => ({ DENO_DIR: dir, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" });
const kiln = (cache, script) => [
  process.execPath,
  ["--no-node-snapshot", kilnBin, "--cachedir", cache, script],
];
const fresh = (name) => join(work, `${name}-${Math.random().toString(36).slice(2)}`);

console.log(
  `kiln-run benchmark: ${iterations} runs each (median), node ${process.version}, ${deno ? spawnSync(deno, ["--version"], { encoding: "utf8" }).stdout.split("\n")[0] : "deno: not runnable here"}`,
);
if (!hasTime) console.log("(/usr/bin/time not found: peak memory not measured)");

for (const [title, ts, mjs] of [
  ["hello world (1 module)", join(programs, "hello.ts"), join(js, "hello.mjs")],
  ["four-module program", join(programs, "four", "main.ts"), join(js, "four", "main.mjs")],
]) {
  const warmCache = join(work, `warm-${title.length}`);
  once(...kiln(warmCache, ts));
  const warmDeno = join(work, `deno-warm-${title.length}`);
  if (deno) once(deno, ["run", "--quiet", ts], denoEnv(warmDeno));
  const configs = [
    ["node (same program as JS)", () => [process.execPath, [mjs]]],
    // The floor: isolated-vm 5 needs Node's startup snapshot off (Node 20), and Node starts
    // slower without it before any of kiln-run's code runs.
    ["node --no-node-snapshot (floor)", () => [process.execPath, ["--no-node-snapshot", mjs]]],
    ["kiln-run cold (empty cache)", () => kiln(fresh("cold"), ts)],
    ["kiln-run cached", () => kiln(warmCache, ts)],
  ];
  if (deno) {
    configs.push([
      "deno run cold (empty DENO_DIR)",
      () => [deno, ["run", "--quiet", ts], denoEnv(fresh("deno"))],
    ]);
    configs.push(["deno run cached", () => [deno, ["run", "--quiet", ts], denoEnv(warmDeno)]]);
  }
  const rows = measureInterleaved(configs);
  const outputs = new Set(rows.map((row) => row.stdout));
  if (outputs.size !== 1) throw new Error(`programs disagree: ${[...outputs].join(" | ")}`);
  table(`start-up: ${title}`, rows, rows[0]);
}

{
  const cache = join(work, "timers-cache");
  const ts = join(programs, "timers.ts");
  once(...kiln(cache, ts));
  const configs = [
    ["node (same program as JS)", () => [process.execPath, [join(js, "timers.mjs")]]],
    ["kiln-run (cached)", () => kiln(cache, ts)],
    [
      "kiln-run hello (cached)",
      () => kiln(join(work, `warm-${"hello world (1 module)".length}`), join(programs, "hello.ts")),
    ],
  ];
  if (deno)
    configs.push([
      "deno run (cached)",
      () => [deno, ["run", "--quiet", ts], denoEnv(join(work, "deno-timers"))],
    ]);
  const [nodeRow, kilnRow, hello, ...denoRows] = measureInterleaved(configs);
  const rows = [nodeRow, kilnRow, ...denoRows];
  table("10,000 timers started at once, all fired", rows, rows[0]);
  const perMessage = ((kilnRow.ms - hello.ms) * 1000) / 20_000;
  console.log(
    `  kiln-run over its own start-up: ${fmt(kilnRow.ms - hello.ms)} ms for 20,000 messages (${fmt(perMessage, 2)} µs per TIMER_START or TIMER_READY)`,
  );
}

{
  const protocol = await import(pathToFileURL(hostRequire.resolve("@kiln/protocol")).href);
  const wire = await import(pathToFileURL(hostRequire.resolve("@kiln/protocol/wire")).href);
  const body = new Uint8Array(256).map((_, i) => i);
  const samples = {
    ERROR: protocol.error({ error: "NotFound: cannot find module", fetchResId: 3 }),
    START: protocol.start({
      cwd: "/work",
      argv: ["main.ts", "a", "b"],
      debugFlag: true,
      mainJs: "x".repeat(4096),
      mainMap: "{}",
    }),
    CODE_FETCH: protocol.codeFetch({ moduleSpecifier: "./lib/util.ts", containingFile: "/work/main.ts" }),
    CODE_FETCH_RES: protocol.codeFetchRes({
      moduleName: "/work/lib/util.ts",
      filename: "/work/lib/util.ts",
      sourceCode: "export const x: number = 1;\n".repeat(20),
      outputCode: "exports.x = 1;\n".repeat(20),
    }),
    CODE_CACHE: protocol.codeCache({
      filename: "/work/lib/util.ts",
      sourceCode: "export const x: number = 1;\n".repeat(20),
      outputCode: "exports.x = 1;\n".repeat(20),
    }),
    EXIT: protocol.exit({ code: 3 }),
    TIMER_START: protocol.timerStart({ id: 1234, interval: true, duration: 250 }),
    TIMER_READY: protocol.timerReady({ id: 1234, done: false }),
    TIMER_CLEAR: protocol.timerClear({ id: 1234 }),
    FETCH_REQ: protocol.fetchReq({ id: 7, url: "https://example.test/data.json?x=1" }),
    FETCH_RES: protocol.fetchRes({
      id: 7,
      status: 200,
      headerLines: ["content-type: application/json", "content-length: 256"],
      body,
    }),
  };
  // 100 ms of warm-up (JIT), then operations counted over 500 ms.
  const rate = (fn) => {
    for (const warm = performance.now() + 100; performance.now() < warm; ) fn();
    let n = 0;
    const started = performance.now();
    while (performance.now() - started < 500) {
      for (let i = 0; i < 100; i++) fn();
      n += 100;
    }
    return n / ((performance.now() - started) / 1000);
  };
  console.log(
    "\ncodec: encode+decode of one BaseMsg+Msg, per second: the specialised codec kiln-run uses, protobuf-es, and JSON.stringify+parse of the same fields",
  );
  console.log(
    `  ${"command".padEnd(16)}${"bytes".padStart(7)}${"wire/s".padStart(11)}${"protobuf-es/s".padStart(15)}${"JSON/s".padStart(10)}${"wire x pb-es".padStart(14)}`,
  );
  for (const [name, msg] of Object.entries(samples)) {
    const plain = Object.fromEntries(
      Object.entries(msg)
        .filter(([k]) => !k.startsWith("$"))
        .map(([k, v]) => [k, v instanceof Uint8Array ? [...v] : v]),
    );
    const size = wire.encodeEnvelope("os", msg).byteLength;
    const fast = rate(() => wire.decodeEnvelope(wire.encodeEnvelope("os", msg)));
    const reflective = rate(() => {
      const base = { $typeName: "main.BaseMsg", channel: "os", payload: protocol.encodeMsg(msg) };
      return protocol.decodeMsg(protocol.decodeBaseMsg(protocol.encodeBaseMsg(base)).payload);
    });
    const json = rate(() => JSON.parse(JSON.stringify({ channel: "os", msg: plain })));
    console.log(
      `  ${name.padEnd(16)}${String(size).padStart(7)}${fmt(fast, 0).padStart(11)}${fmt(reflective, 0).padStart(15)}${fmt(json, 0).padStart(10)}${fmt(fast / reflective, 2).padStart(14)}`,
    );
  }
  console.log(`  peak RSS of this benchmark process: ${fmt(process.resourceUsage().maxRSS / 1024)} MiB`);
}

rmSync(work, { recursive: true, force: true });
