#!/usr/bin/env node
// The web interface's pages against the API calls that return their data, in one run: `kiln web`
// serves both on one port, and each page and its API call are measured back to back, round after
// round, so every page figure has its API figure taken seconds before or after it. The ratio of a
// round is the page's req/s over the API call's; the table shows the median over the rounds (and
// its range). Then the weight of each page: HTML, CSS and JS bytes before compression (the issue's
// budget counts these), and what brotli sends.
// Needs `pnpm build` first.
//   node bench/web/run.mjs [--duration 2] [--rounds 5] [--connections 16] [--postgres] [--log-level warn] [--only TEXT]
// --only measures the pairs whose label holds TEXT (to profile one page: BENCH_NODE_ARGS=--cpu-prof).
import { randomBytes } from "node:crypto";
import { brotliCompressSync } from "node:zlib";
import autocannon from "autocannon";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import { startKiln } from "../api/servers.mjs";

if (process.argv.includes("--help")) {
  console.log(
    "node bench/web/run.mjs [--duration 2] [--rounds 5] [--connections 16] [--postgres] [--log-level warn] [--only TEXT]",
  );
  process.exit(0);
}
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const DURATION = Number(arg("--duration", 2));
const ROUNDS = Number(arg("--rounds", 5));
const CONNECTIONS = Number(arg("--connections", 16));
const LOG_LEVEL = arg("--log-level", "warn");
const POSTGRES = process.argv.includes("--postgres");
const ONLY = arg("--only", undefined);

/**
 * The pages and the API call whose data each shows, as [label, page path, API path, signed in];
 * the repository pages the issue names are added once their repository is seeded.
 */
const PAIRS = [
  ["explore (anonymous)", "/explore/repos", "/api/v1/repos/search?limit=20", false],
  ["explore (signed in)", "/explore/repos", "/api/v1/repos/search?limit=20", true],
  ["user page (anonymous)", "/bench", "/api/v1/users/bench/repos?limit=20", false],
  ["user page (signed in)", "/bench", "/api/v1/users/bench/repos?limit=20", true],
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function measure(url, headers, duration = DURATION) {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

/** Signs in through the form, as a browser does; the session cookie. */
async function signIn(url, user, password) {
  const form = await fetch(`${url}/user/login`);
  const first = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())[1];
  const res = await fetch(`${url}/user/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: first, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: csrf, user_name: user, password }).toString(),
  });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The bytes a page costs before compression: its HTML, and the CSS and JS it links (each once). */
async function weight(url, path, headers) {
  const html = await (await fetch(url + path, { headers })).text();
  const linked = [...html.matchAll(/<(?:link rel="stylesheet" href|script[^>]* src)="([^"]+)"/g)].map(
    (m) => m[1],
  );
  const icons = /<use href="([^"#]+)#/.exec(html)?.[1];
  let assets = 0;
  let assetsBr = 0;
  for (const href of linked) {
    const body = Buffer.from(
      await (await fetch(url + href, { headers: { "accept-encoding": "identity" } })).arrayBuffer(),
    );
    assets += body.length;
    assetsBr += brotliCompressSync(body).length;
  }
  const sprite = icons
    ? (await (await fetch(url + icons, { headers: { "accept-encoding": "identity" } })).arrayBuffer())
        .byteLength
    : 0;
  const htmlBytes = Buffer.byteLength(html);
  return {
    html: htmlBytes,
    assets,
    total: htmlBytes + assets,
    br: brotliCompressSync(html).length + assetsBr,
    sprite,
  };
}

/** A JSON API call as the bench user; its answer's JSON. */
async function call(kiln, method, path, body) {
  const res = await fetch(`${kiln.url}/api/v1${path}`, {
    method,
    headers: { Authorization: `token ${kiln.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`seeding ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * The repository the four page ratios are measured on: a 2,000-line TypeScript file, a
 * commit of 50 changed files, and an issue with 100 comments. Returns their pairs.
 */
async function seedRepository(kiln) {
  await call(kiln, "POST", "/user/repos", { name: "code", description: "Pages of code", auto_init: true });
  const lines = Array.from(
    { length: 2000 },
    (_, i) => `export const value${i} = { index: ${i}, name: "line ${i}", double: ${i * 2} };`,
  );
  const b64 = (text) => Buffer.from(text).toString("base64");
  await call(kiln, "POST", "/repos/bench/code/contents/src/big.ts", {
    content: b64(`${lines.join("\n")}\n`),
    message: "A 2,000-line file",
  });
  const files = Array.from({ length: 50 }, (_, i) => ({
    operation: "create",
    path: `modules/module-${i}.ts`,
    content: b64(lines.slice(i * 20, i * 20 + 20).join("\n")),
  }));
  const commit = await call(kiln, "POST", "/repos/bench/code/contents", { files, message: "50 modules" });
  const sha = commit.commit.sha;
  await call(kiln, "POST", "/repos/bench/code/issues", {
    title: "A long discussion",
    body: "Where to begin?",
  });
  for (let i = 1; i <= 100; i++) {
    await call(kiln, "POST", "/repos/bench/code/issues/1/comments", {
      body: `Comment ${i}: **bold** text, \`code\` and a [link](https://example.com/${i}).`,
    });
  }
  return [
    ["repository home", "/bench/code", "/api/v1/repos/bench/code", false],
    [
      "2,000-line file",
      "/bench/code/src/branch/main/src/big.ts",
      "/api/v1/repos/bench/code/contents/src/big.ts",
      false,
    ],
    [
      "50-file commit diff",
      `/bench/code/commit/${sha}`,
      `/api/v1/repos/bench/code/git/commits/${sha}`,
      false,
    ],
    ["issue with 100 comments", "/bench/code/issues/1", "/api/v1/repos/bench/code/issues/1/comments", false],
    // The floor of any page: the sign-in form is the layout with no data read, against the same
    // API call as the repository home.
    ["page floor: sign-in form", "/user/login", "/api/v1/repos/bench/code", false],
  ];
}

const schema = `kiln_bench_web_${randomBytes(4).toString("hex")}`;
const pgUrl = testPostgresUrl();
const kiln = await startKiln({
  logLevel: LOG_LEVEL,
  ...(POSTGRES ? { postgres: { url: pgUrl, schema } } : {}),
});
try {
  // Fill a list page: 20 more public repositories with descriptions.
  for (let i = 1; i <= 20; i++) {
    const res = await fetch(`${kiln.url}/api/v1/user/repos`, {
      method: "POST",
      headers: { Authorization: `token ${kiln.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: `listed-${i}`, description: `A repository to list, number ${i}` }),
    });
    if (res.status !== 201) throw new Error(`seeding: ${res.status}`);
  }
  PAIRS.push(...(await seedRepository(kiln)));
  if (ONLY !== undefined) PAIRS.splice(0, PAIRS.length, ...PAIRS.filter(([label]) => label.includes(ONLY)));
  const cookie = await signIn(kiln.url, "bench", "password1");
  const headersOf = (kind, signedIn) =>
    !signedIn ? {} : kind === "page" ? { cookie } : { Authorization: `token ${kiln.token}` };

  for (const [, page, apiPath, signedIn] of PAIRS) {
    for (const [kind, path] of [
      ["page", page],
      ["api", apiPath],
    ]) {
      const res = await fetch(kiln.url + path, { headers: headersOf(kind, signedIn) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await measure(kiln.url + path, headersOf(kind, signedIn), 1);
    }
  }
  const results = Object.fromEntries(PAIRS.map(([label]) => [label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, page, apiPath, signedIn] of PAIRS) {
      const order = round % 2 === 0 ? ["api", "page"] : ["page", "api"];
      const m = {};
      for (const kind of order) {
        m[kind] = await measure(kiln.url + (kind === "page" ? page : apiPath), headersOf(kind, signedIn));
      }
      results[label].push({ page: m.page, api: m.api, ratio: m.page.rps / m.api.rps });
    }
    process.stderr.write(`round ${round + 1} of ${ROUNDS} done\n`);
  }

  const fmt = (n) => Math.round(n).toLocaleString("en-US");
  console.log(
    `\nkiln web on ${POSTGRES ? "PostgreSQL" : "PGlite"}; ${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} rounds; each page and its API call back to back in every round; ratio = median over the rounds of the page's req/s ÷ the API call's (lowest–highest in brackets).`,
  );
  console.log("| page | API call | page req/s | page p99 ms | API req/s | API p99 ms | ratio |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const [label, page, apiPath] of PAIRS) {
    const runs = results[label];
    const ratios = runs.map((r) => r.ratio);
    console.log(
      `| ${label} \`${page}\` | \`GET ${apiPath.replace("/api/v1", "")}\` | ${fmt(median(runs.map((r) => r.page.rps)))} | ${median(runs.map((r) => r.page.p99))} | ${fmt(median(runs.map((r) => r.api.rps)))} | ${median(runs.map((r) => r.api.p99))} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`,
    );
  }

  console.log("\nPage weight (bytes before compression; brotli: what is sent when the browser accepts it):");
  console.log("| page | HTML | CSS + JS | HTML + CSS + JS | brotli | icon sprite (SVG) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [label, path, signedIn] of [
    ["home (signed out)", "/", false],
    ["dashboard", "/", true],
    ["explore", "/explore/repos", false],
    ["user page", "/bench", true],
    ["repository home (README excluded: it is one line)", "/bench/code", false],
    ["sign-in", "/user/login", false],
  ]) {
    const w = await weight(kiln.url, path, signedIn ? { cookie } : {});
    console.log(
      `| ${label} \`${path}\` | ${fmt(w.html)} | ${fmt(w.assets)} | ${fmt(w.total)} | ${fmt(w.br)} | ${fmt(w.sprite)} |`,
    );
  }
} finally {
  await kiln.close();
  if (POSTGRES) await dropPostgresSchema(schema, pgUrl);
}
