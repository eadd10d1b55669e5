#!/usr/bin/env node
// Merge latency of `POST /repos/{o}/{r}/pulls/{index}/merge` on a repository of 20,000 commits,
// beside the same merge done with the git CLI (`git merge --no-ff` in a work tree) and git's own
// lower bound without a work tree (`git merge-tree --write-tree` + `commit-tree`), in one run,
// round after round on the same commits. Needs `pnpm build` first.
//   node bench/pull-merge/run.mjs [--rounds 9] [--postgres] [--style merge|squash|rebase]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropPostgresSchema, testPostgresUrl } from "../../packages/storage/dist/testing/index.js";
import { startKiln } from "../api/servers.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const ROUNDS = Number(arg("--rounds", 9));
const STYLE = arg("--style", "merge");
const POSTGRES = process.argv.includes("--postgres");
const COMMITS = 20_000;
const FILES = 2_000;

const git = (args, opts = {}) =>
  execFileSync("git", args, { encoding: "utf8", stdio: ["pipe", "pipe", "pipe"], ...opts }).trim();
const identity = {
  ...process.env,
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

/** A linear history of COMMITS commits over FILES files, one file changed per commit (`git fast-import`). */
function buildRepository(dir) {
  git(["init", "-q", "--bare", "-b", "main", dir]);
  const lines = [];
  for (let n = 1; n <= COMMITS; n++) {
    const message = `commit ${n}`;
    lines.push(
      "commit refs/heads/main",
      `mark :${n}`,
      `committer Bench <bench@example.com> ${1_700_000_000 + n} +0000`,
    );
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (n > 1) lines.push(`from :${n - 1}`);
    const files = n === 1 ? Array.from({ length: FILES }, (_, f) => f) : [n % FILES];
    for (const f of files) {
      const content = `file ${f} v${n}\n`;
      lines.push(`M 100644 inline dir${f % 40}/file${f}.txt`, `data ${Buffer.byteLength(content)}`, content);
    }
  }
  git(["--git-dir", dir, "fast-import", "--quiet"], { input: `${lines.join("\n")}\n` });
  git(["--git-dir", dir, "repack", "-adq"]);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = (fn) => {
  const start = performance.now();
  const result = fn();
  return [performance.now() - start, result];
};

const cache = join(tmpdir(), "kiln-bench-pull-merge");
const source = join(cache, `linear-${COMMITS}-${FILES}.git`);
if (!existsSync(source)) {
  mkdirSync(cache, { recursive: true });
  const building = `${source}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const [ms] = time(() => buildRepository(building));
  renameSync(building, source);
  console.log(`built ${COMMITS} commits over ${FILES} files in ${Math.round(ms)} ms`);
}

const scratch = mkdtempSync(join(tmpdir(), "kiln-bench-pull-merge-"));
const work = join(scratch, "work");
git(["clone", "-q", source, work]);
const schema = `kiln_bench_${Date.now()}`;
const kiln = await startKiln({ ...(POSTGRES ? { postgres: { url: testPostgresUrl(), schema } } : {}) });
try {
  const auth = { Authorization: `token ${kiln.token}`, "Content-Type": "application/json" };
  const api = async (method, path, body) => {
    const res = await fetch(`${kiln.url}/api/v1${path}`, {
      method,
      headers: auth,
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  await api("POST", "/user/repos", { name: "big" });
  const remote = new URL(`${kiln.url}/bench/big.git`);
  remote.username = "bench";
  remote.password = kiln.token;
  git(["-C", work, "push", "-q", remote.href, "main"]);

  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // The base moves on by one commit while a topic branch adds two, both on the same old base:
    // a real three-way merge of diverged branches, as pull requests usually are.
    git(["-C", work, "checkout", "-q", "-b", `topic-${round}`], { env: identity });
    for (const k of [1, 2]) {
      execFileSync("sh", ["-c", `echo "topic ${round}.${k}" > topic-${round}-${k}.txt`], { cwd: work });
      git(["-C", work, "add", "-A"]);
      git(["-C", work, "commit", "-q", "-m", `topic ${round}.${k}`], { env: identity });
    }
    git(["-C", work, "checkout", "-q", "main"]);
    execFileSync("sh", ["-c", `echo "base ${round}" > base-${round}.txt`], { cwd: work });
    git(["-C", work, "add", "-A"]);
    git(["-C", work, "commit", "-q", "-m", `base ${round}`], { env: identity });
    git(["-C", work, "push", "-q", remote.href, "main", `topic-${round}`]);
    const base = git(["-C", work, "rev-parse", "main"]);
    const topic = git(["-C", work, "rev-parse", `topic-${round}`]);

    const pull = await api("POST", "/repos/bench/big/pulls", {
      head: `topic-${round}`,
      base: "main",
      title: `topic ${round}`,
    });
    const started = performance.now();
    await api("POST", `/repos/bench/big/pulls/${pull.number}/merge`, { Do: STYLE });
    const kilnMs = performance.now() - started;
    const merged = (await api("GET", `/repos/bench/big/pulls/${pull.number}`)).merge_commit_sha;

    // The git CLI doing the same merge of the same commits in a work tree.
    git(["-C", work, "checkout", "-q", "--detach", base]);
    const [cliMs] = time(() =>
      git(["-C", work, "merge", "-q", "--no-ff", "-m", "merge", topic], { env: identity }),
    );
    // git's floor without a work tree.
    const [treeMs] = time(() => {
      const tree = git(["-C", work, "merge-tree", "--write-tree", base, topic]).split("\n")[0];
      git(["-C", work, "commit-tree", tree, "-p", base, "-p", topic, "-m", "merge"], { env: identity });
    });
    // Continue from Kiln's result, so the next round starts where the server is.
    git(["-C", work, "fetch", "-q", remote.href, "main"]);
    git(["-C", work, "checkout", "-q", "-B", "main", "FETCH_HEAD"]);
    if (git(["-C", work, "rev-parse", "main"]) !== merged)
      throw new Error("the server's main is not the merge");
    rows.push({ kilnMs, cliMs, treeMs });
  }
  const k = median(rows.map((r) => r.kilnMs));
  const c = median(rows.map((r) => r.cliMs));
  const m = median(rows.map((r) => r.treeMs));
  console.log(
    `\nmerge style \`${STYLE}\` on ${COMMITS.toLocaleString("en-US")} commits / ${FILES.toLocaleString("en-US")} files, Kiln on ${POSTGRES ? "PostgreSQL" : "PGlite"}, median of ${ROUNDS} rounds`,
  );
  console.log("| merge | median ms | ratio to git CLI |");
  console.log("|---|---:|---:|");
  console.log(
    `| Kiln \`POST …/pulls/{index}/merge\` (whole request) | ${k.toFixed(1)} | ${(k / c).toFixed(2)} |`,
  );
  console.log(`| git CLI \`git merge --no-ff\` in a work tree | ${c.toFixed(1)} | 1.00 |`);
  console.log(
    `| git \`merge-tree --write-tree\` + \`commit-tree\` | ${m.toFixed(1)} | ${(m / c).toFixed(2)} |`,
  );
} finally {
  await kiln.close();
  rmSync(scratch, { recursive: true, force: true });
  if (POSTGRES) await dropPostgresSchema(schema, testPostgresUrl());
}
