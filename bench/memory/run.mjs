#!/usr/bin/env node
// Resident memory of `kiln web` after start-up and a mixed API load, on PGlite (the embedded
// default) and on PostgreSQL, side by side. Each server is seeded the way bench/api seeds it
// (../api/servers.mjs), answers `--requests` API requests (default 200) cycling through reads and
// writes, rests for a second, and then its VmRSS (with the anonymous and file-backed parts) is read
// from /proc/<pid>/status. A last row measures the floor: an empty PGlite in a bare node process
// with Kiln's options (./floor.mjs), so the table separates what PGlite itself holds from what
// Kiln adds. One more row starts `kiln web` on an empty work path, so that the server process
// itself creates the database (an instance's first start). Needs `pnpm build` first.
//   node bench/memory/run.mjs [--requests 200] [--no-postgres]
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import pg from "../../packages/storage/node_modules/pg/lib/index.js";
import { startKiln } from "../api/servers.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const REQUESTS = Number(arg("--requests", 200));
const POSTGRES = !process.argv.includes("--no-postgres");
const FLOOR = fileURLToPath(new URL("./floor.mjs", import.meta.url));
const KILN = fileURLToPath(new URL("../../apps/server/bin/kiln.js", import.meta.url));

/** VmRSS, RssAnon and RssFile of a process, in MiB. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? Number.NaN);
  return { rss: kib("VmRSS") / 1024, anon: kib("RssAnon") / 1024, file: kib("RssFile") / 1024 };
}

/** `count` API requests through a mix of reads (anonymous and with a token) and writes. */
async function load(kiln, count) {
  const token = { Authorization: `token ${kiln.token}`, "Content-Type": "application/json" };
  const mix = [
    ["GET", "/version", {}],
    ["GET", "/user", token],
    ["GET", "/repos/bench/public-1", token],
    ["GET", "/repos/search?q=", token],
    ["GET", "/repos/search?q=public", {}],
    ["GET", "/repos/bench/public-1/contents/README.md", token],
    ["GET", "/repos/bench/public-1/raw/README.md", token],
    ["GET", "/users/bench/repos", token],
    ["POST", "/repos/bench/public-1/issues", token, (i) => ({ title: `issue ${i}`, body: "memory bench" })],
    ["GET", "/repos/bench/public-1/issues?state=all", token],
  ];
  for (let i = 0; i < count; i++) {
    const [method, path, headers, body] = mix[i % mix.length];
    const res = await fetch(`${kiln.url}/api/v1${path}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body(i)) } : {}),
    });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
  }
}

/** Starts a Kiln, loads it, reads its memory, stops it. */
async function measureKiln(options) {
  const kiln = await startKiln({ logLevel: "warn", ...options });
  try {
    const started = memory(kiln.pid);
    await load(kiln, REQUESTS);
    await new Promise((r) => setTimeout(r, 1000));
    return { started, loaded: memory(kiln.pid) };
  } finally {
    await kiln.close();
  }
}

/**
 * `kiln web` started on an empty work path, so that it creates its PGlite database itself (the
 * first start of an instance), then `count` anonymous API reads: nobody is signed up yet.
 */
async function measureFirstStart(count) {
  const work = mkdtempSync(join(tmpdir(), "kiln-bench-memory-"));
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(process.execPath, [KILN, "web", "-w", work, "--port", String(port)], {
    env: { ...process.env, KILN_LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}/api/v1`;
  try {
    for (
      let i = 0;
      !(await fetch(`${url}/version`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 1200 || child.exitCode !== null) throw new Error("kiln web did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
    const started = memory(child.pid);
    const reads = ["/version", "/repos/search?q=", "/users/search?q=", "/settings/api"];
    for (let i = 0; i < count; i++) {
      const res = await fetch(url + reads[i % reads.length]);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${reads[i % reads.length]}: ${res.status}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    return { started, loaded: memory(child.pid) };
  } finally {
    await new Promise((done) => {
      child.once("close", done);
      child.kill("SIGTERM");
    });
    rmSync(work, { recursive: true, force: true });
  }
}

const rows = [
  ["Kiln, PGlite", await measureKiln({})],
  ["Kiln, PGlite, first start (anonymous reads)", await measureFirstStart(REQUESTS)],
];
if (POSTGRES) {
  // A fresh database of its own on the test server, dropped afterwards.
  const base = testPostgresUrl();
  const name = `kiln_bench_mem_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    rows.push(["Kiln, PostgreSQL", await measureKiln({ postgres: { url: String(url), schema: "public" } })]);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
const floor = JSON.parse(execFileSync(process.execPath, [FLOOR], { encoding: "utf8" }));

const mib = (n) => String(Math.round(n));
console.log(`\nresident memory in MiB; "after load" is after ${REQUESTS} mixed API requests and 1 s of rest`);
console.log("| process | started: VmRSS | after load: VmRSS | anonymous | file-backed |");
console.log("|---|---:|---:|---:|---:|");
for (const [name, { started, loaded }] of rows)
  console.log(
    `| ${name} | ${mib(started.rss)} | ${mib(loaded.rss)} | ${mib(loaded.anon)} | ${mib(loaded.file)} |`,
  );
console.log(
  `| empty PGlite in bare node (Kiln's options) | ${mib(floor.started.rss)} | ${mib(floor.loaded.rss)} | ${mib(floor.loaded.anon)} | ${mib(floor.loaded.file)} |`,
);
console.log(`| bare node | ${mib(floor.bare.rss)} | | | |`);
