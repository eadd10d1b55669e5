// Starting the servers under test as child processes, so that the load generator and each server
// do not share an event loop, and seeding Kiln through its CLI and API.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const KILN = fileURLToPath(new URL("../../apps/server/bin/kiln.js", import.meta.url));
const BARE = fileURLToPath(new URL("./bare-hono.mjs", import.meta.url));

/**
 * With `--pin` the servers run pinned to core 1 and the load generator to core 0 (`taskset`), so
 * that neither steals the other's CPU and the ratio compares the servers' own cost per request on
 * one core (GC helper threads included). The default leaves the scheduler alone, as the issue's
 * reference figures were measured.
 */
export const PIN = (() => {
  if (!process.argv.includes("--pin")) return false;
  try {
    execFileSync("taskset", ["-cp", "0", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** Extra node flags for the servers under test, e.g. `BENCH_NODE_ARGS=--cpu-prof` to profile them. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);

/** Spawns a node process, on the server core when pinning. */
function spawnNode(script, options) {
  const args = [...NODE_ARGS, ...script];
  return PIN
    ? spawn("taskset", ["-c", "1", process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

function stopper(child) {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once("close", () => done());
      child.kill("SIGTERM");
    });
}

/** The bare Hono reference server. */
export async function startBareHono() {
  const child = spawnNode([BARE], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
    child.once("exit", (code) => reject(new Error(`bare Hono exited with ${code}`)));
  });
  return { url, pid: child.pid, close: stopper(child) };
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/**
 * `kiln web` on a fresh work path: embedded PGlite, or PostgreSQL when `postgres` gives a URL and
 * a schema of its own. Seeds an admin `root` (CLI), a user `bench` with a token (API), three
 * public and three private repositories of `bench` (`public-1` with a README) and two private
 * ones of `root`.
 */
export async function startKiln({ postgres, logLevel }) {
  const work = mkdtempSync(join(tmpdir(), "kiln-bench-api-"));
  const env = {
    ...process.env,
    ...(logLevel ? { KILN_LOG_LEVEL: logLevel } : {}),
    ...(postgres ? { DATABASE_URL: postgres.url, KILN__DATABASE__SCHEMA: postgres.schema } : {}),
  };
  const cli = (...args) =>
    execFileSync(process.execPath, [KILN, ...args, "-w", work], { env, stdio: "pipe" });
  cli(
    "admin",
    "user",
    "create",
    "--username",
    "root",
    "--password",
    "password1",
    "--email",
    "root@example.com",
    "--admin",
  );
  const port = await freePort();
  const child = spawnNode([KILN, "web", "-w", work, "--port", String(port)], {
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
    if (i > 1200 || child.exitCode !== null) {
      child.kill("SIGTERM");
      throw new Error(`kiln web did not start (exit code ${child.exitCode})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const call = async (method, path, auth, body) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { Authorization: auth, "Content-Type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const root = basic("root", "password1");
  await call("POST", "/admin/users", root, {
    username: "bench",
    email: "bench@example.com",
    password: "password1",
    must_change_password: false,
  });
  const bench = basic("bench", "password1");
  const { sha1: token } = await call("POST", "/users/bench/tokens", bench, {
    name: "bench",
    scopes: ["all"],
  });
  for (let i = 1; i <= 3; i++) {
    await call("POST", "/user/repos", bench, { name: `public-${i}`, private: false, auto_init: i === 1 });
    await call("POST", "/user/repos", bench, { name: `private-${i}`, private: true });
  }
  for (let i = 1; i <= 2; i++)
    await call("POST", "/user/repos", root, { name: `hidden-${i}`, private: true });
  const close = stopper(child);
  return {
    url,
    token,
    pid: child.pid,
    close: async () => {
      await close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
