#!/usr/bin/env node
// Hot-path throughput of Kiln's API against a bare Hono app, in one run. Bare Hono, `kiln web` on
// PGlite and `kiln web` on PostgreSQL run side by side as separate processes (an idle server costs
// nothing), and each request is measured on every server back to back, round after round, so that
// every Kiln figure has a bare Hono figure taken seconds before it. The ratio of each round is
// Kiln's req/s over the bare /version req/s of the same round; the table shows the median ratio
// over the rounds (and its range), so the machine's drift, which moved bare Hono between 19,000
// and 36,000 req/s within one earlier run, cancels out instead of landing on one side.
// Each measurement also reads the server's CPU time (user + system, /proc/<pid>/stat) and divides
// it by the requests answered: CPU µs per request, and its ratio (bare Hono's ÷ Kiln's, same
// round), which depend less than req/s on what else the machine and the load generator are doing.
// Needs `pnpm build` first.
//   node bench/api/run.mjs [--duration 2] [--rounds 5] [--connections 32] [--no-postgres]
//                          [--log-level warn] [--pin]
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import { PIN, startBareHono, startKiln } from "./servers.mjs";

if (process.argv.includes("--help")) {
  console.log(
    "node bench/api/run.mjs [--duration 2] [--rounds 5] [--connections 32] [--no-postgres] [--log-level warn] [--pin]",
  );
  process.exit(0);
}

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const DURATION = Number(arg("--duration", 2));
const CONNECTIONS = Number(arg("--connections", 32));
const LOG_LEVEL = arg("--log-level", undefined);
const POSTGRES = !process.argv.includes("--no-postgres");
const ROUNDS = Number(arg("--rounds", 5));

/** The requests measured, as [label, path, with token]. */
const REQUESTS = [
  ["GET /version", "/api/v1/version", false],
  ["GET /version + token header", "/api/v1/version", true],
  ["GET /user (token)", "/api/v1/user", true],
  ["GET /repos/{o}/{r} (token)", "/api/v1/repos/bench/public-1", true],
  ["GET /repos/search?q= (token)", "/api/v1/repos/search?q=", true],
  // A small file of a public repository (its README), as JSON and as raw bytes.
  ["GET /repos/{o}/{r}/contents/README.md (token)", "/api/v1/repos/bench/public-1/contents/README.md", true],
  ["GET /repos/{o}/{r}/raw/README.md (token)", "/api/v1/repos/bench/public-1/raw/README.md", true],
];

/** A process's CPU time so far (user + system), in µs, where /proc tells it; else undefined. */
function cpuTime(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** req/s, p99 and the server's CPU µs per request (`pid`'s, when known) of one autocannon run. */
async function measure(url, headers = {}, duration = DURATION, pid = undefined) {
  const before = pid && cpuTime(pid);
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  const after = pid && cpuTime(pid);
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const cpu = before !== undefined && after !== undefined ? (after - before) / r.requests.total : undefined;
  return { rps: r.requests.average, p99: r.latency.p99, cpu };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const servers = [];
const schema = `kiln_bench_${randomBytes(4).toString("hex")}`;
const pgUrl = testPostgresUrl();
try {
  const bare = await startBareHono();
  servers.push(bare);
  /** The Kiln servers, as [column name, server]. */
  const kilns = [["Kiln, PGlite", await startKiln({ logLevel: LOG_LEVEL })]];
  servers.push(kilns[0][1]);
  if (POSTGRES) {
    const kiln = await startKiln({ logLevel: LOG_LEVEL, postgres: { url: pgUrl, schema } });
    servers.push(kiln);
    kilns.push(["Kiln, PostgreSQL", kiln]);
  }
  const headers = (kiln, withToken) => (withToken ? { Authorization: `token ${kiln.token}` } : {});
  const bareUrl = `${bare.url}/api/v1/version`;

  // Every request answers 200 on every server, then everything is warmed up for 1 s.
  for (const [, kiln] of kilns) {
    for (const [, path, withToken] of REQUESTS) {
      const first = await fetch(kiln.url + path, { headers: headers(kiln, withToken) });
      if (first.status !== 200) throw new Error(`${path}: ${first.status} ${await first.text()}`);
      await measure(kiln.url + path, headers(kiln, withToken), 1);
    }
  }
  await measure(bareUrl, {}, 1);

  /** results[column][label] = [{ rps, p99, ratio }, …], one entry per round. */
  const results = Object.fromEntries(
    [["bare Hono"], ...kilns].map(([name]) => [name, Object.fromEntries(REQUESTS.map(([l]) => [l, []]))]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, path, withToken] of REQUESTS) {
      // Bare Hono first in even rounds and last in odd ones, so neither side always goes first.
      const order = round % 2 === 0 ? ["bare", ...kilns] : [...kilns, "bare"];
      const kilnRuns = [];
      let reference;
      for (const entry of order) {
        if (entry === "bare") reference = await measure(bareUrl, {}, DURATION, bare.pid);
        else
          kilnRuns.push([
            entry[0],
            await measure(entry[1].url + path, headers(entry[1], withToken), DURATION, entry[1].pid),
          ]);
      }
      results["bare Hono"][label].push({ ...reference, ratio: 1, cpuRatio: 1 });
      for (const [name, m] of kilnRuns) {
        results[name][label].push({ ...m, ratio: m.rps / reference.rps, cpuRatio: reference.cpu / m.cpu });
      }
    }
    process.stderr.write(`round ${round + 1} of ${ROUNDS} done\n`);
  }

  const fmt = (n) => Math.round(n).toLocaleString("en-US");
  const bareAll = REQUESTS.flatMap(([label]) => results["bare Hono"][label].map((m) => m.rps));
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} rounds; ${PIN ? "servers pinned to core 1, load generator to core 0" : "unpinned"}; each request measured on bare Hono (/version) and on each Kiln back to back in every round; ratio = median over the rounds of Kiln's req/s ÷ bare Hono's in the same round (lowest–highest in brackets); req/s and p99 are medians. Bare Hono ranged over ${fmt(Math.min(...bareAll))}–${fmt(Math.max(...bareAll))} req/s during the run.`,
  );
  const header = [
    "request",
    ...kilns.flatMap(([n]) => [`${n} req/s`, "p99 ms", "ratio", "CPU µs/req", "CPU ratio"]),
  ];
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
  const us = (runs) => {
    const cpu = runs.map((m) => m.cpu).filter((c) => c !== undefined);
    return cpu.length > 0 ? median(cpu).toFixed(1) : "";
  };
  const bareVersion = results["bare Hono"]["GET /version"];
  console.log(
    `| bare Hono GET /version | ${fmt(median(bareVersion.map((m) => m.rps)))} | ${median(bareVersion.map((m) => m.p99))} | 1.00 | ${us(bareVersion)} | 1.00 |${" | | | | |".repeat(kilns.length - 1)}`,
  );
  const withRange = (ratios) =>
    `${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
  for (const [label] of REQUESTS) {
    const cells = kilns.flatMap(([name]) => {
      const runs = results[name][label];
      const cpuRatios = runs.map((m) => m.cpuRatio).filter((r) => Number.isFinite(r));
      return [
        fmt(median(runs.map((m) => m.rps))),
        String(median(runs.map((m) => m.p99))),
        withRange(runs.map((m) => m.ratio)),
        us(runs),
        cpuRatios.length > 0 ? withRange(cpuRatios) : "",
      ];
    });
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  }
  // A raw file should be the cheapest read there is: against the contents API and Kiln's own
  // /version, round by round (medians of the per-round ratios).
  const RAW = "GET /repos/{o}/{r}/raw/README.md (token)";
  const CONTENTS = "GET /repos/{o}/{r}/contents/README.md (token)";
  for (const [name] of kilns) {
    const per = (label) => results[name][label].map((m) => m.rps);
    const raw = per(RAW);
    const ratioTo = (label) => median(per(label).map((rps, round) => raw[round] / rps)).toFixed(3);
    console.log(
      `${name}: raw ÷ contents ${ratioTo(CONTENTS)}, raw ÷ Kiln's GET /version ${ratioTo("GET /version")}`,
    );
  }
} finally {
  await Promise.allSettled(servers.map((s) => s.close()));
  if (POSTGRES) await dropPostgresSchema(schema, pgUrl);
}
