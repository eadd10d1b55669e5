#!/usr/bin/env node
// Start-up time of the `kiln` CLI beside the floor of a bare `node -e 0`: the median wall time of
// `--runs` runs (default 7) of each command, one after another. `kiln admin user create` through a
// running server is what every end-to-end suite does per user, and what an operator's scripts do.
// Needs `pnpm build` first.
//   node bench/cli/run.mjs [--runs 7]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const RUNS = Number(arg("--runs", 7));
const KILN = fileURLToPath(new URL("../../apps/server/bin/kiln.js", import.meta.url));

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Median wall time of `runs` runs of `node args`, in ms. */
function median(args, runs = RUNS) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args(i), { stdio: "ignore" });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const work = mkdtempSync(join(tmpdir(), "kiln-bench-cli-"));
const port = await freePort();
const server = spawn(process.execPath, [KILN, "web", "-w", work, "--port", String(port)], {
  stdio: "ignore",
});
try {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/version`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  const rows = [
    ["node -e 0 (floor)", median(() => ["-e", "0"])],
    ["kiln --version", median(() => [KILN, "--version"])],
    ["kiln admin user create --help", median(() => [KILN, "admin", "user", "create", "--help"])],
    [
      "kiln admin user create (running server)",
      median((i) => [
        KILN,
        "-w",
        work,
        "admin",
        "user",
        "create",
        "--username",
        `u${i}`,
        "--password",
        "password1",
        "--email",
        `u${i}@example.com`,
      ]),
    ],
    ["kiln admin user list (running server)", median(() => [KILN, "-w", work, "admin", "user", "list"])],
  ];
  const floor = rows[0][1];
  console.log(`| command | median ms | × floor |\n|---|---:|---:|`);
  for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / floor).toFixed(1)} |`);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.on("close", r));
  rmSync(work, { recursive: true, force: true });
}
