#!/usr/bin/env node
// Issue search on a repository with 1,000 issues and on one with 100,000 (seeded straight into the
// database), the same queries finding the same number of issues in each, measured in the same
// run, interleaved, through Kiln's whole HTTP stack in process. Prints each query's latency on
// both and their ratio (issue 13's target: the big one within 2x of the small), then PostgreSQL's
// plan for the keyword search on the big repository, to show it is answered from indexes.
//
//   pnpm build && node bench/issue-search/run.mjs [--small 1000] [--big 100000] [--rounds 300] [--postgres]
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { defaultSettings } from "../../packages/domain/dist/index.js";
import { createApp } from "../../packages/http/dist/index.js";
import { createServices, silentLogger } from "../../packages/service/dist/index.js";
import { issueSearch, issues, migrateToLatest, openDatabase } from "../../packages/storage/dist/index.js";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";

const flag = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SMALL = flag("--small", 1_000);
const BIG = flag("--big", 100_000);
const ROUNDS = flag("--rounds", 300);
const POSTGRES = process.argv.includes("--postgres");
/** Each seeded repository has this many issues with the rare word and this many with the label. */
const MATCHES = 20;

const schema = `kiln_bench_${randomBytes(4).toString("hex")}`;
const workPath = mkdtempSync(join(tmpdir(), "kiln-bench-issues-"));
const database = POSTGRES
  ? { type: "postgres", url: testPostgresUrl(), schema }
  : { type: "pglite", path: "memory://" };
const db = await openDatabase(database);
await migrateToLatest(db, POSTGRES ? schema : undefined);
const settings = defaultSettings(workPath, {
  server: { rootUrl: "http://kiln.bench/" },
  security: { secretKey: "bench" },
  database,
});
const services = createServices({ db, settings, logger: silentLogger });
const app = createApp({ services, settings, logger: silentLogger });
const { sql } = await import("../../packages/storage/node_modules/kysely/dist/esm/index.js");

async function call(method, path, token, body) {
  const res = await app.request(`http://kiln.bench/api/v1${path}`, {
    method,
    headers: { Authorization: `token ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** An owner with one repository of `count` issues: MATCHES carry the word `kilnrare`, MATCHES the label `triage`. */
async function seed(name, count) {
  const user = await services.users.create({
    username: name,
    email: `${name}@example.com`,
    password: "password1",
  });
  const { secret } = await services.tokens.create(user, "bench", ["all"]);
  const repo = await call("POST", "/user/repos", secret, { name: "tracker" });
  const label = await call("POST", `/repos/${name}/tracker/labels`, secret, {
    name: "triage",
    color: "00aabb",
  });
  const every = Math.floor(count / MATCHES);
  const started = performance.now();
  await sql`insert into issue (repo_id, index, poster_id, title, content, is_closed, created_at, updated_at)
    select ${repo.id}, g, ${user.id},
      'Issue ' || g || ' about the ' ||
        (array['parser','network','storage','renderer','build','docs','login','quota','search','deploy'])[1 + g % 10] ||
        case when g % ${every} = 0 then ' kilnrare' else '' end,
      'What happened in case ' || g || ', and what was expected instead.',
      g % 3 = 0,
      now() - make_interval(secs => ${count} - g),
      now() - make_interval(secs => ${count} - g)
    from generate_series(1, ${count}) as g`.execute(db);
  await sql`insert into issue_label (issue_id, label_id)
    select id, ${label.id} from issue where repo_id = ${repo.id} and index % ${every} = 1`.execute(db);
  await sql`insert into issue_index (repo_id, max_index) values (${repo.id}, ${count})
    on conflict (repo_id) do update set max_index = excluded.max_index`.execute(db);
  await issues.recountRepoIssues(db, repo.id);
  return { name, token: secret, repoId: repo.id, seedMs: performance.now() - started };
}

const small = await seed("small", SMALL);
const big = await seed("big", BIG);
await sql`analyze`.execute(db);

const QUERIES = [
  ["keyword", (o) => `/repos/${o}/tracker/issues?state=all&q=kilnrare`],
  ["label", (o) => `/repos/${o}/tracker/issues?state=all&labels=triage`],
  ["keyword + label", (o) => `/repos/${o}/tracker/issues?state=all&labels=triage&q=network`],
  ["first page, open", (o) => `/repos/${o}/tracker/issues?state=open&limit=30`],
  ["cross-repo search", (o) => `/repos/issues/search?owner=${o}&q=kilnrare&state=all`],
];

// Both must find the same issues, or the comparison means nothing.
for (const [label, path] of QUERIES) {
  const [a, b] = [await call("GET", path("small"), small.token), await call("GET", path("big"), big.token)];
  if (a.length !== b.length) throw new Error(`${label}: ${a.length} issues on small, ${b.length} on big`);
}
for (let i = 0; i < 50; i++)
  for (const [, path] of QUERIES)
    await call("GET", path(i % 2 ? "small" : "big"), (i % 2 ? small : big).token);

const times = new Map(QUERIES.map(([label]) => [label, { small: [], big: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, path] of QUERIES) {
    // Interleaved, alternating which goes first, so drift in the machine's speed hits both alike.
    for (const who of round % 2 ? [small, big] : [big, small]) {
      const t0 = performance.now();
      await call("GET", path(who.name), who.token);
      times.get(label)[who.name].push(performance.now() - t0);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const ms = (x) => `${x.toFixed(2)} ms`.padStart(11);
const n = (x) => x.toLocaleString("en-US");
console.log(
  `issue search on ${POSTGRES ? "PostgreSQL" : "PGlite"}, ${ROUNDS} rounds, ${MATCHES} matches per query`,
);
console.log(
  `  seeded ${n(SMALL)} issues in ${(small.seedMs / 1000).toFixed(1)} s, ${n(BIG)} in ${(big.seedMs / 1000).toFixed(1)} s`,
);
console.log(
  `  ${"query".padEnd(20)}${`${n(SMALL)} med`.padStart(11)}${"p95".padStart(11)}${`${n(BIG)} med`.padStart(11)}${"p95".padStart(11)}${"ratio".padStart(8)}  target`,
);
for (const [label] of QUERIES) {
  const t = times.get(label);
  const ratio = median(t.big) / median(t.small);
  console.log(
    `  ${label.padEnd(20)}${ms(median(t.small))}${ms(p95(t.small))}${ms(median(t.big))}${ms(p95(t.big))}${ratio.toFixed(2).padStart(8)}  ≤ 2`,
  );
}

const plan = await issueSearch.explainIssueSearch(
  db,
  { repoIds: [big.repoId], state: "all", isPull: false, keyword: "kilnrare" },
  "latest",
  { page: 1, limit: 30 },
);
console.log(`\nplans of the keyword search on ${n(BIG)} issues: finding the matches,`);
for (const line of plan.matches) console.log(`  ${line}`);
console.log("the page:");
for (const line of plan.page) console.log(`  ${line}`);
console.log("and the total:");
for (const line of plan.total) console.log(`  ${line}`);

await db.destroy();
if (POSTGRES) await dropPostgresSchema(schema);
rmSync(workPath, { recursive: true, force: true });
