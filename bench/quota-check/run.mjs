#!/usr/bin/env node
// Latency of GET /api/v1/user/quota/check for an owner storing 10 objects and for one storing
// 1,000,000 (seeded straight into the database), measured in the same run, interleaved, through
// Kiln's full HTTP stack (auth, routing, validation, service, storage) in process. Prints both and
// their ratio, which must stay near 1: a check reads one ledger row, never the stored objects.
// Then runs bench/quota-engine for the pure engine's evaluations per second.
//
//   pnpm build && node bench/quota-check/run.mjs [--objects 1000000] [--requests 2000] [--postgres]
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { defaultSettings } from "../../packages/domain/dist/index.js";
import { createApp } from "../../packages/http/dist/index.js";
import { createServices, silentLogger } from "../../packages/service/dist/index.js";
import {
  migrateToLatest,
  openDatabase,
  quotaRecount,
  quotaUsage,
  repositories,
} from "../../packages/storage/dist/index.js";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";

const flag = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const OBJECTS = flag("--objects", 1_000_000);
const REQUESTS = flag("--requests", 2000);
const POSTGRES = process.argv.includes("--postgres");
const SUBJECTS = ["size:all", "size:repos:all", "sizelfs", "size:assets:packages:all", "size:repos:private"];

const schema = `kiln_bench_${randomBytes(4).toString("hex")}`;
const database = POSTGRES
  ? { type: "postgres", url: testPostgresUrl(), schema }
  : { type: "pglite", path: "memory://" };
const db = await openDatabase(database);
await migrateToLatest(db, POSTGRES ? schema : undefined);
const settings = defaultSettings("/tmp/kiln-bench-quota-check", {
  server: { rootUrl: "http://kiln.bench/" },
  security: { secretKey: "bench" },
  database,
});
const services = createServices({ db, settings, logger: silentLogger });
const app = createApp({ services, settings, logger: silentLogger });

async function owner(name) {
  const user = await services.users.create({
    username: name,
    email: `${name}@example.com`,
    password: "password1",
  });
  const { secret } = await services.tokens.create(user, "bench", ["read:user"]);
  return { user, token: secret };
}
const small = await owner("small");
const big = await owner("big");

// The same 10 groups x 10 rules apply to both owners (the engine benchmark's workload size).
for (let g = 0; g < 10; g++) {
  const name = `group-${g}`;
  await services.quotaAdmin.createGroup(
    name,
    Array.from({ length: 10 }, (_, r) => ({
      name: `rule-${g}-${r}`,
      limit: (g + 1) * (r + 1) * 1024 ** 3,
      subjects: [SUBJECTS[(g + r) % SUBJECTS.length]],
    })),
  );
  await services.quotaAdmin.addOwnerToGroup(name, "small");
  await services.quotaAdmin.addOwnerToGroup(name, "big");
}

// Small: 10 repositories, stored and recorded in the ledger as the repository API does.
for (let i = 0; i < 10; i++) {
  await db.transaction().execute(async (trx) => {
    const repo = await repositories.insertRepository(trx, {
      ownerId: small.user.id,
      ownerName: "small",
      name: `r${i}`,
      lowerName: `r${i}`,
      gitSize: 1000 + i,
      lfsSize: i,
      isPrivate: i % 3 === 0,
    });
    await services.ledger.recordRepositoryChange(trx, undefined, repo);
  });
}

// Big: OBJECTS repositories seeded straight into the table, then the ledger row set to their sum.
let started = performance.now();
const { sql } = await import("../../packages/storage/node_modules/kysely/dist/esm/index.js");
await sql`insert into repository (owner_id, owner_name, name, lower_name, git_size, lfs_size, is_private)
  select ${big.user.id}, 'big', 'r' || g, 'r' || g, 1000 + g % 1000, g % 7, g % 3 = 0
  from generate_series(1, ${OBJECTS}) as g`.execute(db);
await sql`analyze repository`.execute(db);
const seedMs = performance.now() - started;
started = performance.now();
const recount = (await quotaRecount.recountUsage(db, [big.user.id])).get(big.user.id);
const recountMs = performance.now() - started;
await quotaUsage.setUsage(db, big.user.id, recount);

async function check(who, subject) {
  const res = await app.request(`http://kiln.bench/api/v1/user/quota/check?subject=${subject}`, {
    headers: { Authorization: `token ${who.token}` },
  });
  if (res.status !== 200) throw new Error(`check answered ${res.status}: ${await res.text()}`);
  return res.json();
}

// Both owners get the same answers from the same rules only if both usages were read.
for (const s of SUBJECTS) await Promise.all([check(small, s), check(big, s)]);
for (let i = 0; i < 200; i++) await check(i % 2 ? small : big, SUBJECTS[i % SUBJECTS.length]); // warm-up

const times = { small: [], big: [] };
for (let i = 0; i < REQUESTS; i++) {
  const subject = SUBJECTS[i % SUBJECTS.length];
  // Interleaved, alternating which goes first, so drift in the machine's speed hits both alike.
  for (const name of i % 2 ? ["small", "big"] : ["big", "small"]) {
    const t0 = performance.now();
    await check(name === "small" ? small : big, subject);
    times[name].push(performance.now() - t0);
  }
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    median: s[Math.floor(s.length / 2)],
    p95: s[Math.floor(s.length * 0.95)],
    mean: xs.reduce((a, b) => a + b, 0) / xs.length,
  };
};
const a = stats(times.small);
const b = stats(times.big);
const ms = (x) => `${x.toFixed(3)} ms`.padStart(12);
const row = (label, x) => console.log(`  ${label.padEnd(22)}${ms(x.median)}${ms(x.p95)}${ms(x.mean)}`);
const big_ = `${OBJECTS.toLocaleString("en-US")} objects`;
console.log(
  `GET /user/quota/check on ${POSTGRES ? "PostgreSQL" : "PGlite"}, ${REQUESTS} requests per owner, 10 groups x 10 rules`,
);
console.log(`  seeded ${big_} (repository rows) in ${(seedMs / 1000).toFixed(1)} s`);
console.log(`  ${"".padEnd(22)}${"median".padStart(12)}${"p95".padStart(12)}${"mean".padStart(12)}`);
row("10 objects", a);
row(big_, b);
console.log(
  `  ratio ${big_} / 10 objects: median ${(b.median / a.median).toFixed(2)}, mean ${(b.mean / a.mean).toFixed(2)}`,
);
console.log(
  `  for reference: recounting the big owner's usage from its rows (kiln doctor quota) took ${recountMs.toFixed(0)} ms`,
);

await db.destroy();
if (POSTGRES) await dropPostgresSchema(schema);

console.log("\npure engine (bench/quota-engine):");
const engine = spawnSync(
  process.execPath,
  [fileURLToPath(new URL("../quota-engine/run.mjs", import.meta.url)), "--seconds", "1"],
  {
    stdio: "inherit",
  },
);
process.exit(engine.status ?? 1);
