import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { dropPostgresSchema, testPostgresUrl } from "@kiln/storage/testing";

/** The built `kiln` executable: tests drive it exactly as a user would. */
export const KILN_BIN = fileURLToPath(new URL("../bin/kiln.js", import.meta.url));

/** A fresh, empty work path. */
export function tempWorkPath(): string {
  return mkdtempSync(join(process.env.KILN_E2E_TMP ?? tmpdir(), "kiln-e2e-"));
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs a `kiln` CLI command to completion. */
export function kiln(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KILN_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A `kiln web` process under test. */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Every JSON log line the server wrote so far. */
  readonly logs: Record<string, unknown>[];
  /** Resolves with the exit code when the process ends. */
  readonly exited: Promise<number | null>;
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the first log line (already written or still to come) that matches. */
  waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Starts `kiln web` on a free port and waits until it answers. */
export async function startServer(
  workPath: string,
  env: Readonly<Record<string, string>> = {},
  extraArgs: readonly string[] = [],
): Promise<ServerProcess> {
  if (
    extraArgs.length === 0 &&
    !Object.keys(env).some((k) => k === "DATABASE_URL" || k.startsWith("KILN__DATABASE__"))
  ) {
    await seedPglite(join(workPath, "data", "pglite"));
  }
  return spawnServer(workPath, env, extraArgs);
}

/**
 * Gives a work path that has no database yet a copy of a migrated, empty PGlite directory, made
 * once per test run by a real first start of `kiln web`. Each suite wants a fresh instance, not a
 * fresh initdb: on a loaded 2-core machine, initdb and the migrations of a first start cost tens of
 * seconds, and the end-to-end suites make dozens of instances. Only the database is copied: the
 * instance's secret key and directories are its own. Without the run's temporary directory (a
 * single test file run outside vitest's global setup) or when the template cannot be made, the
 * server starts from nothing as before.
 */
async function seedPglite(dataDir: string): Promise<void> {
  const root = process.env.KILN_E2E_TMP;
  if (!root || existsSync(dataDir)) return;
  const template = join(root, "pglite-template");
  if (!existsSync(template)) {
    let maker = false;
    try {
      mkdirSync(`${template}.lock`);
      maker = true;
    } catch {
      // another test worker makes it
    }
    if (maker) {
      const work = tempWorkPath();
      try {
        const first = await spawnServer(work, {}, []);
        first.signal("SIGTERM");
        if ((await first.exited) === 0) renameSync(join(work, "data", "pglite"), template);
      } finally {
        rmSync(work, { recursive: true, force: true });
        if (!existsSync(template)) mkdirSync(`${template}.failed`, { recursive: true });
      }
    } else {
      const deadline = Date.now() + 150_000;
      while (!existsSync(template) && !existsSync(`${template}.failed`) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  if (existsSync(template)) cpSync(template, dataDir, { recursive: true });
}

async function spawnServer(
  workPath: string,
  env: Readonly<Record<string, string>>,
  extraArgs: readonly string[],
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [KILN_BIN, "web", "--work-path", workPath, "--port", String(port), ...extraArgs],
    {
      env: { ...process.env, ...env },
    },
  );
  const logs: Record<string, unknown>[] = [];
  const waiters = new Set<(line: Record<string, unknown>) => void>();
  let output = "";
  let pending = "";
  child.stdout.on("data", (d: Buffer) => {
    pending += d.toString();
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      output += `${line}\n`;
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        // not a log line
      }
      if (parsed) {
        logs.push(parsed);
        for (const waiter of [...waiters]) waiter(parsed);
      }
      nl = pending.indexOf("\n");
    }
  });
  child.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Generous: on a loaded machine opening and migrating PGlite alone can take tens of seconds.
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`kiln web exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/v1/version`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`kiln web did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const waitForLog = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const found = logs.find(match);
      if (found) return resolve(found);
      const waiter = (line: Record<string, unknown>) => {
        if (!match(line)) return;
        waiters.delete(waiter);
        resolve(line);
      };
      waiters.add(waiter);
      void exited.then(() => {
        if (!waiters.delete(waiter)) return;
        reject(new Error(`kiln web exited without logging the awaited line:\n${output}`));
      });
    });
  return { url, port, process: child, logs, exited, signal: (s) => child.kill(s), waitForLog };
}

/**
 * Creates a user with the CLI (through the running server; password `password1`) and an `all`
 * token for it through the API: each test makes its own, so none depends on another's leftovers.
 */
export async function createUser(
  server: Pick<ServerProcess, "url">,
  workPath: string,
  username: string,
  env: Readonly<Record<string, string>> = {},
  options: { readonly admin?: boolean } = {},
): Promise<{ username: string; basic: readonly [string, string]; token: string }> {
  const created = await kiln(
    [
      "admin",
      "user",
      "create",
      "--work-path",
      workPath,
      "--username",
      username,
      "--password",
      "password1",
      "--email",
      `${username}@example.com`,
      ...(options.admin ? ["--admin"] : []),
      "--must-change-password=false",
    ],
    env,
  );
  if (created.code !== 0) throw new Error(`kiln admin user create ${username} failed: ${created.stderr}`);
  const basic = [username, "password1"] as const;
  const token = await api(server.url, "POST", `/users/${username}/tokens`, {
    basic,
    body: { name: `${username}-token`, scopes: ["all"] },
  });
  if (token.status !== 201) throw new Error(`token creation for ${username} answered ${token.status}`);
  return { username, basic, token: token.json.sha1 as string };
}

/** A site administrator made by {@link createUser}. */
export function createAdmin(
  server: ServerProcess,
  workPath: string,
  username: string,
  env: Readonly<Record<string, string>> = {},
): Promise<{ username: string; basic: readonly [string, string]; token: string }> {
  return createUser(server, workPath, username, env, { admin: true });
}

/** Calls the API like a plain HTTP client. */
// biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
type Json = any;

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; basic?: readonly [string, string]; body?: unknown } = {},
): Promise<{ status: number; headers: Headers; json: Json }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `token ${opts.token}`;
  if (opts.basic) headers.Authorization = `Basic ${Buffer.from(opts.basic.join(":")).toString("base64")}`;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const DATABASE_KINDS = ["pglite", "postgres"] as const;

/**
 * The databases the end-to-end suites run `kiln web` on: both, unless `KILN_E2E_DATABASES` names a
 * subset (comma-separated). CI's second run on another Node version takes the embedded PGlite
 * alone: the Node-sensitive parts are PGlite's WebAssembly and the server itself, and the
 * PostgreSQL client is plain JavaScript already run on both versions by the suites that use it.
 */
export const E2E_DATABASES: readonly (typeof DATABASE_KINDS)[number][] = ((chosen) => {
  if (!chosen) return DATABASE_KINDS;
  const kinds = chosen.split(",").map((k) => k.trim());
  const unknown = kinds.filter((k) => !(DATABASE_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`KILN_E2E_DATABASES: unknown database kind ${unknown.join(", ")}`);
  return DATABASE_KINDS.filter((k) => kinds.includes(k));
})(process.env.KILN_E2E_DATABASES);

/**
 * The environment that points `kiln web` and the CLI at a database: nothing for the embedded
 * PGlite, a fresh schema on the test PostgreSQL otherwise (dropped by `dispose`).
 */
export function databaseEnv(
  kind: (typeof E2E_DATABASES)[number],
  extra: Readonly<Record<string, string>> = {},
): { env: Record<string, string>; dispose(): Promise<void> } {
  if (kind === "pglite") return { env: { ...extra }, dispose: async () => {} };
  const schema = `kiln_e2e_${randomBytes(5).toString("hex")}`;
  return {
    env: { DATABASE_URL: testPostgresUrl(), KILN__DATABASE__SCHEMA: schema, ...extra },
    dispose: () => dropPostgresSchema(schema),
  };
}

/** An ordinary user made by {@link createUser}; returns its token. */
export async function createUserWithToken(
  server: Pick<ServerProcess, "url">,
  workPath: string,
  env: Readonly<Record<string, string>>,
  username: string,
): Promise<string> {
  return (await createUser(server, workPath, username, env)).token;
}
