#!/usr/bin/env node
// Hot-path throughput of Kiln's API against a bare Hono app, in one run: bare Hono, `kiln
// web` on PGlite, bare Hono again, Kiln on PostgreSQL, bare Hono a third time, each a separate
// process measured alone, driven by autocannon (32 connections). Prints req/s, p99 latency and the ratio to bare Hono's
// /version side by side. Needs `pnpm build` first.
//   node bench/api/run.mjs [--duration 5] [--rounds 2] [--connections 32] [--no-postgres]
//                          [--log-level warn] [--pin]
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import { PIN, startBareHono, startKiln } from "./servers.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const DURATION = Number(arg("--duration", 5));
const CONNECTIONS = Number(arg("--connections", 32));
const LOG_LEVEL = arg("--log-level", undefined);
const POSTGRES = !process.argv.includes("--no-postgres");
const ROUNDS = Number(arg("--rounds", 2));

/** The requests measured, as [label, path, with token]. */
const REQUESTS = [
  ["GET /version", "/api/v1/version", false],
  ["GET /version + token header", "/api/v1/version", true],
  ["GET /user (token)", "/api/v1/user", true],
  ["GET /repos/{o}/{r} (token)", "/api/v1/repos/bench/public-1", true],
  ["GET /repos/search?q= (token)", "/api/v1/repos/search?q=", true],
];

async function measure(url, headers = {}) {
  const first = await fetch(url, { headers });
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${await first.text()}`);
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

async function measureKiln(name, options) {
  const kiln = await startKiln(options);
  try {
    const headers = (withToken) => (withToken ? { Authorization: `token ${kiln.token}` } : {});
    for (const [, path, withToken] of REQUESTS) {
      await autocannon({
        url: kiln.url + path,
        headers: headers(withToken),
        connections: CONNECTIONS,
        duration: 1,
      });
    }
    // Every request is measured in each round, the rounds one after another, and the best round
    // counts: a burst of other work on the machine (PostgreSQL's autovacuum after the seeding, a
    // neighbour) lowers one round, never raises one.
    const results = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, path, withToken] of REQUESTS) {
        const m = await measure(kiln.url + path, headers(withToken));
        if (!results[label] || m.rps > results[label].rps) results[label] = m;
      }
    }
    return [name, results];
  } finally {
    await kiln.close();
  }
}

/**
 * Bare Hono's /version, measured before, between and after the Kiln runs: the machine's speed
 * drifts over a run, and the best of the three is the reference the ratios divide by (the same
 * rule as Kiln's rounds, and at least as many tries).
 */
const bareRuns = [];
async function measureBare() {
  const bare = await startBareHono();
  try {
    await autocannon({ url: `${bare.url}/api/v1/version`, connections: CONNECTIONS, duration: 1 }); // warm-up
    bareRuns.push(await measure(`${bare.url}/api/v1/version`));
  } finally {
    await bare.close();
  }
}

await measureBare();
const kilnColumns = [await measureKiln("Kiln, PGlite", { logLevel: LOG_LEVEL })];
await measureBare();
if (POSTGRES) {
  const schema = `kiln_bench_${randomBytes(4).toString("hex")}`;
  const url = testPostgresUrl();
  try {
    kilnColumns.push(
      await measureKiln("Kiln, PostgreSQL", { logLevel: LOG_LEVEL, postgres: { url, schema } }),
    );
  } finally {
    await dropPostgresSchema(schema, url);
  }
}
await measureBare();
const reference = bareRuns.reduce((best, r) => (r.rps > best.rps ? r : best));
const columns = [
  ["bare Hono", Object.fromEntries(REQUESTS.map(([label]) => [label, reference]))],
  ...kilnColumns,
];

const fmt = (n) => Math.round(n).toLocaleString("en-US");
console.log(
  `\n${CONNECTIONS} connections, ${DURATION} s per request after a 1 s warm-up of every request; ${PIN ? "servers pinned to core 1, load generator to core 0" : "unpinned"}; best of ${ROUNDS} rounds; ratio = req/s ÷ bare Hono's /version req/s (the best of ${bareRuns.map((r) => fmt(r.rps)).join(", ")}: before, between and after the Kiln runs)`,
);
const header = ["request", ...columns.slice(1).flatMap(([n]) => [`${n} req/s`, "p99 ms", "ratio"])];
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
console.log(
  `| bare Hono GET /version | ${fmt(reference.rps)} | ${reference.p99} | 1.00 |${" | | |".repeat(columns.length - 2)}`,
);
for (const [label] of REQUESTS) {
  const cells = columns.slice(1).flatMap(([, results]) => {
    const m = results[label];
    return [fmt(m.rps), String(m.p99), (m.rps / reference.rps).toFixed(3)];
  });
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}
