// Webhook delivery throughput with two `kiln web` processes sharing one PostgreSQL queue (issue 16).
//
//   node bench/webhooks/run.mjs [--events N] [--queued M] [--concurrency C]
//
// Two measurements. End to end: N issues (default 100) opened through both servers, each
// delivered. Queue drain: M deliveries (default 2000) put in the shared hook_task table at once,
// as a burst of events would, drained by both servers' workers: deliveries/s from the insert to
// the last delivery (the end-to-end figure is bound by issue creation on a loaded machine).
//
// Both servers run on one PostgreSQL schema (separate work paths, one SECRET_KEY). A repository
// of the first has a hook (events: issues_only) pointing at a loopback receiver; N issues are
// opened through both servers alternately, C at a time, so each server's worker claims deliveries
// from the shared hook_task table (FOR UPDATE SKIP LOCKED). The receiver counts X-Forgejo-Delivery
// ids: duplicates (an id seen twice) and lost (an event whose delivery never came) must be 0.
// Reference, same run: the same N bodies POSTed straight to the receiver, C at a time.
//
// Slow beside fast (issue 27): a hook whose receiver answers each request after S ms (default
// 4000) gets Q deliveries queued (default 5000) while issues are opened, one at a time, in a
// repository whose hook's receiver answers at once. The fast receiver's latency (issue created
// → delivery received) is measured alone first and then beside the slow queue, in the same run:
// the ratio of the two medians should stay near 1 (before the slot pool it grew without bound).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase, webhooks } from "../../packages/storage/dist/index.js";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";

const KILN = fileURLToPath(new URL("../../apps/server/bin/kiln.js", import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg("--events", 100);
const QUEUED = arg("--queued", 2000);
const CONCURRENCY = arg("--concurrency", 8);
const SLOW_QUEUED = arg("--slow-queued", 5000);
const SLOW_MS = arg("--slow-ms", 4000);
const SAMPLES = arg("--latency-samples", 20);
const schema = `kiln_bench_hooks_${Date.now().toString(36)}`;
const env = {
  ...process.env,
  DATABASE_URL: testPostgresUrl(),
  KILN__DATABASE__SCHEMA: schema,
  KILN__SECURITY__SECRET_KEY: "bench-webhooks-secret",
  KILN__WEBHOOK__ALLOWED_HOST_LIST: "loopback",
  KILN_LOG_LEVEL: "warn",
};

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(work) {
  const port = await freePort();
  const child = spawn(process.execPath, [KILN, "web", "-w", work, "--port", String(port)], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/api/v1/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 2400 || child.exitCode !== null) throw new Error(`kiln web did not start (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function receiver() {
  const seen = new Map();
  let total = 0;
  let wake = () => {};
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = req.headers["x-forgejo-delivery"] ?? `direct-${total}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      total++;
      res.end("ok");
      wake();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hook`,
        get total() {
          return total;
        },
        seen,
        reset() {
          seen.clear();
          total = 0;
        },
        until(n, ms) {
          return new Promise((done) => {
            const timer = setTimeout(() => done(false), ms);
            wake = () => {
              if (seen.size >= n) {
                clearTimeout(timer);
                done(true);
              }
            };
            wake();
          });
        },
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

/** A receiver that answers every request after `ms`, counting them. */
function slowReceiver(ms) {
  let total = 0;
  const timers = new Set();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      total++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.end("slow ok");
      }, ms);
      timers.add(timer);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/slow`,
        get total() {
          return total;
        },
        close: () => {
          for (const timer of timers) clearTimeout(timer);
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}

/** Opens `n` issues one after the other; for each, ms from the request to its delivery's arrival. */
async function latencies(receiverOf, base, auth, repo, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const before = receiverOf.seen.size;
    const start = performance.now();
    await call(base, "POST", `/repos/bench/${repo}/issues`, auth, { title: `latency ${i}` });
    if (!(await receiverOf.until(before + 1, 60_000))) {
      out.push(Number.POSITIVE_INFINITY);
      continue;
    }
    out.push(performance.now() - start);
  }
  return out.sort((x, y) => x - y);
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];

async function pool(n, concurrency, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

const basic = (u, p) => `Basic ${Buffer.from(`${u}:${p}`).toString("base64")}`;
async function call(base, method, path, auth, body) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { Authorization: auth, "Content-Type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const workA = mkdtempSync(join(tmpdir(), "kiln-bench-hooks-a-"));
const workB = mkdtempSync(join(tmpdir(), "kiln-bench-hooks-b-"));
const hooks = await receiver();
const fastHooks = await receiver();
const slowHooks = await slowReceiver(SLOW_MS);
let a;
let b;
try {
  execFileSync(
    process.execPath,
    [KILN, "admin", "user", "create", "-w", workA, "--username", "bench", "--password", "password1"].concat([
      "--email",
      "bench@example.com",
      "--must-change-password=false",
    ]),
    { env, stdio: "pipe" },
  );
  a = await startServer(workA);
  b = await startServer(workB);
  const auth = basic("bench", "password1");
  await call(a.url, "POST", "/user/repos", auth, { name: "hooked" });
  await call(a.url, "POST", "/repos/bench/hooked/hooks", auth, {
    type: "forgejo",
    config: { url: hooks.url, content_type: "json", secret: "s" },
    events: ["issues_only"],
    active: true,
  });

  // Kiln: N issues through both servers; every delivery counted by id.
  const start = performance.now();
  await pool(EVENTS, CONCURRENCY, (i) =>
    call(i % 2 === 0 ? a.url : b.url, "POST", "/repos/bench/hooked/issues", auth, { title: `event ${i}` }),
  );
  const created = performance.now();
  const complete = await hooks.until(EVENTS, 300_000);
  const kilnMs = performance.now() - start;
  // Let any late duplicate arrive before counting.
  await new Promise((r) => setTimeout(r, 2000));
  const unique = hooks.seen.size;
  const duplicates = hooks.total - unique;
  const lost = EVENTS - unique;

  // Queue drain: M deliveries queued at once in the shared table.
  hooks.reset();
  const db = await openDatabase({ type: "postgres", url: env.DATABASE_URL, schema });
  const hook = await db.selectFrom("webhook").selectAll().executeTakeFirstOrThrow();
  const payload = JSON.stringify({ action: "opened", number: 1, issue: { title: "queued" } });
  const rows = Array.from({ length: QUEUED }, (_, i) => ({
    hookId: hook.id,
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    eventType: "issues",
    payload,
  }));
  const drainStart = performance.now();
  for (let i = 0; i < rows.length; i += 500) await webhooks.insertHookTasks(db, rows.slice(i, i + 500));
  const drained = await hooks.until(QUEUED, 300_000);
  const drainMs = performance.now() - drainStart;
  await new Promise((r) => setTimeout(r, 2000));
  const drainDuplicates = hooks.total - hooks.seen.size;
  const drainLost = QUEUED - hooks.seen.size;
  await db.destroy();

  // Reference: the same number of bodies posted straight to the receiver.
  hooks.reset();
  const body = JSON.stringify({ action: "opened", number: 1, issue: { title: "event" } });
  const refStart = performance.now();
  await pool(QUEUED, CONCURRENCY, async (i) => {
    const res = await fetch(hooks.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forgejo-Delivery": `direct-${i}` },
      body,
    });
    await res.text();
  });
  const refMs = performance.now() - refStart;

  // Slow beside fast: the fast hook's latency alone, then with the slow hook's queue pending.
  await call(a.url, "POST", "/user/repos", auth, { name: "fast" });
  await call(a.url, "POST", "/repos/bench/fast/hooks", auth, {
    type: "forgejo",
    config: { url: fastHooks.url, content_type: "json" },
    events: ["issues_only"],
    active: true,
  });
  await call(a.url, "POST", "/user/repos", auth, { name: "slow" });
  const slowHook = await call(a.url, "POST", "/repos/bench/slow/hooks", auth, {
    type: "forgejo",
    config: { url: slowHooks.url, content_type: "json" },
    events: ["issues_only"],
    active: true,
  });
  const alone = await latencies(fastHooks, a.url, auth, "fast", SAMPLES);
  const slowDb = await openDatabase({ type: "postgres", url: env.DATABASE_URL, schema });
  const slowRows = Array.from({ length: SLOW_QUEUED }, (_, i) => ({
    hookId: slowHook.id,
    uuid: `00000000-0000-4000-9000-${String(i).padStart(12, "0")}`,
    eventType: "issues",
    payload,
  }));
  for (let i = 0; i < slowRows.length; i += 500)
    await webhooks.insertHookTasks(slowDb, slowRows.slice(i, i + 500));
  // Let both workers fill what they may with the slow receiver's deliveries first.
  const slowStart = performance.now();
  while (slowHooks.total === 0 && performance.now() - slowStart < 10_000)
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1500));
  const beside = await latencies(fastHooks, a.url, auth, "fast", SAMPLES);
  const pendingSlow = await slowDb
    .selectFrom("hook_task")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("hookId", "=", slowHook.id)
    .where("isDelivered", "=", false)
    .executeTakeFirstOrThrow();
  await slowDb.destroy();

  const rate = (EVENTS / kilnMs) * 1000;
  const drainRate = (QUEUED / drainMs) * 1000;
  const refRate = (QUEUED / refMs) * 1000;
  console.log("two kiln web processes on one PostgreSQL, one hook, a loopback receiver");
  console.log(
    `end to end: ${EVENTS} issues (${CONCURRENCY} at a time) created in ${(created - start).toFixed(0)} ms, ` +
      `all delivered: ${complete}, ${rate.toFixed(1)} deliveries/s; duplicates=${duplicates} lost=${lost}`,
  );
  console.log(
    `queue drain: ${QUEUED} queued deliveries sent in ${drainMs.toFixed(0)} ms, all delivered: ${drained}, ` +
      `${drainRate.toFixed(1)} deliveries/s; duplicates=${drainDuplicates} lost=${drainLost}`,
  );
  console.log(
    `reference: the same ${QUEUED} bodies POSTed straight to the receiver (${CONCURRENCY} at a time): ` +
      `${refRate.toFixed(1)} /s; kiln's drain takes ${(refRate / drainRate).toFixed(2)} x as long`,
  );
  const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "never");
  console.log(
    `fast receiver, ${SAMPLES} issues one at a time: alone median ${ms(pct(alone, 0.5))} p95 ${ms(pct(alone, 0.95))}; ` +
      `beside a slow receiver (${SLOW_QUEUED} queued, ${SLOW_MS} ms each; ${slowHooks.total} reached it, ` +
      `${pendingSlow.n} still pending) median ${ms(pct(beside, 0.5))} p95 ${ms(pct(beside, 0.95))}; ` +
      `median ratio ${(pct(beside, 0.5) / pct(alone, 0.5)).toFixed(2)} x`,
  );
} finally {
  await a?.stop();
  await b?.stop();
  await hooks.close();
  await fastHooks.close();
  await slowHooks.close();
  await dropPostgresSchema(schema);
  rmSync(workA, { recursive: true, force: true });
  rmSync(workB, { recursive: true, force: true });
}
