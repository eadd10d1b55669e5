#!/usr/bin/env node
// Read throughput of Kiln's repository API on a large repository (20,000 commits, 5,000 files),
// against Kiln's own `GET /version` in the same run, with the server's peak memory; and
// `commits?path=` against `git log -- path` on the same repository. Needs `pnpm build` first.
//   node bench/git-read/run.mjs [--duration 5] [--connections 32] [--postgres] [--only raw,branches]
//                               [--no-engines] [--rounds 3]
// Ends with the two object engines compared on cold reads (engines.mjs).
// The repository is built once and kept in $TMPDIR/kiln-bench-git-read/. Profile the server
// with BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import { startKiln } from "../api/servers.mjs";
import { compareEngines } from "./engines.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const DURATION = Number(arg("--duration", 5));
const CONNECTIONS = Number(arg("--connections", 32));
const POSTGRES = process.argv.includes("--postgres");
/** Only the requests whose label contains one of these (GET /version always runs). */
const ONLY = arg("--only", "").split(",").filter(Boolean);
const COMMITS = 20_000;
const FILES = 5_000;
/** The file `commits?path=` asks for: changed by every tenth commit. */
const HOT = "src/hot.txt";
/** A file only the root commit touches: its history is that commit, which adds all 5,000 files. */
const ROOTED = "README.md";

/** Builds the repository with `git fast-import`: every file in the first commit, then one change per commit. */
function buildRepository(dir) {
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", dir]);
  const lines = [];
  const when = 1_700_000_000;
  const commit = (n, changes) => {
    lines.push(
      "commit refs/heads/main",
      `mark :${n}`,
      `committer Bench <bench@example.com> ${when + n} +0000`,
    );
    const message = `commit ${n}`;
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (n > 1) lines.push(`from :${n - 1}`);
    for (const [path, content] of changes)
      lines.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(content)}`, content);
  };
  const first = [
    ["README.md", "# big\n"],
    [HOT, "hot 0\n"],
  ];
  for (let f = 0; f < FILES - 2; f++) first.push([`dir${f % 50}/file${f}.txt`, `file ${f}\n`]);
  commit(1, first);
  for (let n = 2; n <= COMMITS; n++) {
    commit(
      n,
      n % 10 === 0
        ? [[HOT, `hot ${n}\n`]]
        : [[`dir${n % 50}/file${n % (FILES - 2)}.txt`, `file ${n % (FILES - 2)} v${n}\n`]],
    );
  }
  execFileSync("git", ["--git-dir", dir, "fast-import", "--quiet"], { input: `${lines.join("\n")}\n` });
  execFileSync("git", ["--git-dir", dir, "repack", "-adq"]);
}

function peakKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
}

async function measure(url, headers) {
  const first = await fetch(url, { headers });
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${await first.text()}`);
  await first.arrayBuffer();
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  if (r.non2xx || r.errors) {
    const answers = await Promise.all(
      Array.from({ length: CONNECTIONS }, () =>
        fetch(url, { headers }).then(
          async (res) => `${res.status} ${res.status === 200 ? "" : await res.text()}`,
        ),
      ),
    );
    throw new Error(
      `${url}: ${r.non2xx} non-2xx, ${r.errors} errors; now: ${[...new Set(answers)].join(" | ")}`,
    );
  }
  return { rps: r.requests.average, p99: r.latency.p99 };
}

/** Median wall time (ms) of `fn` over `n` runs. */
async function median(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)];
}

const source = join(tmpdir(), "kiln-bench-git-read");
const repoDir = join(source, `big-${COMMITS}-${FILES}.git`);
let started = performance.now();
if (!existsSync(repoDir)) {
  mkdirSync(source, { recursive: true });
  const building = `${repoDir}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  buildRepository(building);
  renameSync(building, repoDir);
  console.log(`built ${COMMITS} commits, ${FILES} files in ${Math.round(performance.now() - started)} ms`);
}

const schema = `kiln_bench_${Date.now()}`;
const kiln = await startKiln({ ...(POSTGRES ? { postgres: { url: testPostgresUrl(), schema } } : {}) });
try {
  const auth = { Authorization: `token ${kiln.token}` };
  /** Creates `name` and pushes the bench repository into it. */
  const pushRepository = async (name) => {
    const created = await fetch(`${kiln.url}/api/v1/user/repos`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name }),
    });
    if (created.status !== 201) throw new Error(`create repo: ${created.status}`);
    const push = new URL(`${kiln.url}/bench/${name}.git`);
    push.username = "bench";
    push.password = kiln.token;
    // Asynchronously: a push that blocked this process would leave the client's keep-alive
    // sockets, closed meanwhile by the server (after 5 s idle), looking open to the next request.
    await new Promise((resolve, reject) => {
      const child = spawn("git", ["--git-dir", repoDir, "push", "-q", push.href, "main"], {
        stdio: "ignore",
      });
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`git push exited with ${code}`)),
      );
    });
  };
  started = performance.now();
  await pushRepository("big");
  console.log(`pushed in ${Math.round(performance.now() - started)} ms`);

  const repoApi = (name) => `${kiln.url}/api/v1/repos/bench/${name}`;
  const api = repoApi("big");
  const timeFetch = async (url) => {
    const start = performance.now();
    const res = await fetch(url, { headers: auth });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return performance.now() - start;
  };
  const hotQuery = `commits?path=${HOT}&limit=30&stat=false&files=false`;
  // Forgejo's defaults (stat and files on) for a path whose history reaches the root commit, which
  // adds all 5,000 files: the first request computes their line stats.
  const rootedQuery = `commits?path=${ROOTED}&limit=30`;
  const hotPage = `${api}/${hotQuery}`;
  const rootedDefaults = `${api}/${rootedQuery}`;
  /** History queries timed one at a time: first (cold: nothing of that path computed) and warm. */
  const history = [
    [`commits?path=${HOT}&stat=false&files=false`, hotQuery, HOT],
    [`commits?path=${ROOTED} (Forgejo's defaults: stat, files)`, rootedQuery, ROOTED],
  ];
  // Each history query's first request, in three copies of the repository (medians: one request
  // is one sample on a noisy machine). A request without a path first warms what every read of a
  // repository shares (its refs, pack index and object processes).
  const firstsByQuery = history.map(() => []);
  for (const name of ["big", "big-cold-2", "big-cold-3"]) {
    if (name !== "big") await pushRepository(name);
    await timeFetch(`${repoApi(name)}/commits?limit=1&stat=false&files=false`);
    for (const [index, [, query]] of history.entries()) {
      firstsByQuery[index].push(await timeFetch(`${repoApi(name)}/${query}`));
    }
  }
  const firsts = firstsByQuery.map((times) => times.sort((a, b) => a - b)[1]);

  const head = await (await fetch(`${api}/branches/main`, { headers: auth })).json();
  const tree = head.commit.id;
  const requests = [
    ["GET /version", `${kiln.url}/api/v1/version`],
    ["GET /contents/README.md", `${api}/contents/README.md`],
    ["GET /raw/README.md", `${api}/raw/README.md`],
    ["GET /branches", `${api}/branches`],
    ["GET /commits?limit=30&stat=false&files=false", `${api}/commits?limit=30&stat=false&files=false`],
    [`GET /commits?path=${HOT}&stat=false&files=false`, hotPage],
    [`GET /commits?path=${ROOTED} (Forgejo's defaults: stat, files)`, rootedDefaults],
    ["GET /git/trees/{sha}", `${api}/git/trees/${tree}`],
    ["GET /contents/dir0 (100 entries)", `${api}/contents/dir0`],
  ];
  const results = [];
  for (const [label, url] of requests) {
    if (results.length > 0 && ONLY.length > 0 && !ONLY.some((part) => label.includes(part))) continue;
    results.push([label, await measure(url, auth)]);
  }
  const version = results[0][1].rps;

  const gitLogOf = (path) =>
    median(5, async () => {
      await new Promise((resolve, reject) => {
        const child = spawn("git", ["--git-dir", repoDir, "log", "--format=%H %an %s", "--", path], {
          stdio: ["ignore", "ignore", "ignore"],
        });
        child.on("close", resolve);
        child.on("error", reject);
      });
    });
  const timings = [];
  for (const [index, [label, query, path]] of history.entries()) {
    const then = await median(5, () => timeFetch(`${api}/${query}`));
    timings.push([label, firsts[index], then, path, await gitLogOf(path)]);
  }

  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s per request after 1 s of warm-up; Kiln on ${POSTGRES ? "PostgreSQL" : "PGlite"}`,
  );
  console.log("| request | req/s | p99 ms | ratio to /version |");
  console.log("|---|---:|---:|---:|");
  for (const [label, m] of results) {
    console.log(
      `| ${label} | ${Math.round(m.rps).toLocaleString("en-US")} | ${m.p99} | ${(m.rps / version).toFixed(3)} |`,
    );
  }
  // A raw file should be the cheapest read there is: at least the contents API's rate.
  const rateOf = (label) => results.find(([l]) => l === label)?.[1].rps;
  const raw = rateOf("GET /raw/README.md");
  const contents = rateOf("GET /contents/README.md");
  if (raw !== undefined && contents !== undefined) {
    console.log(
      `\nraw ÷ contents: ${(raw / contents).toFixed(3)}; raw ÷ /version: ${(raw / version).toFixed(3)}`,
    );
  }
  console.log("\nOne request at a time, against `git log -- <path>` (median of 5) on the same repository:");
  console.log(
    "| request | first ms (median of 3 repositories) | then ms (median of 5) | git log ms | ratio first | ratio then |",
  );
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [label, first, then, path, gitLog] of timings) {
    console.log(
      `| \`${label}\` | ${first.toFixed(1)} | ${then.toFixed(1)} | ${gitLog.toFixed(1)} (\`${path}\`) | ${(first / gitLog).toFixed(2)} | ${(then / gitLog).toFixed(2)} |`,
    );
  }
  console.log(`server peak resident memory: ${Math.round(peakKb(kiln.pid) / 1024)} MiB`);
} finally {
  await kiln.close();
  if (POSTGRES) await dropPostgresSchema(schema, testPostgresUrl());
}
if (!process.argv.includes("--no-engines")) await compareEngines(repoDir, Number(arg("--rounds", 3)));
