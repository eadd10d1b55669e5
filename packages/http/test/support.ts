import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { defaultSettings, type Settings, type SettingsOverrides } from "@kiln/domain";
import { createServices, type Services, silentLogger } from "@kiln/service";
import { users } from "@kiln/storage";
import { type DialectName, openTestDatabase, uniqueName } from "@kiln/storage/testing";
import type { Hono } from "hono";
import { createApp } from "../src/app.js";
import type { AppEnv } from "../src/env.js";

/** A Kiln app over a fresh test database, plus helpers to call it as a Forgejo client would. */
export interface TestApp {
  readonly app: Hono<AppEnv>;
  readonly services: Services;
  close(): Promise<void>;
  /** Sends a request to /api/v1 and returns status, headers and parsed JSON (or text). */
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /** The instance's settings (work path, repository root, …). */
  readonly settings: Settings;
  /** Where the app is served on loopback (`http://127.0.0.1:<port>`), when opened with `listen`. */
  readonly url?: string;
  /** Creates a user straight through the service (password "password1"), optionally admin. */
  user(opts?: {
    admin?: boolean;
    name?: string;
    visibility?: "public" | "limited" | "private";
  }): Promise<TestUser>;
}

export interface CallOptions {
  readonly token?: string;
  readonly basic?: readonly [string, string];
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  readonly json: any;
  readonly text: string;
}

export interface TestUser {
  readonly name: string;
  readonly id: number;
  /** A token with scope `all`. */
  readonly token: string;
  readonly basic: readonly [string, string];
}

/**
 * A test app over a fresh database. With `listen`, the app is served on a loopback port by Node's
 * HTTP server (as `kiln web` serves it) and every call goes over a real socket; otherwise calls
 * go through `app.request()`.
 */
export async function openTestApp(
  dialect: DialectName,
  overrides: SettingsOverrides = {},
  options: { listen?: boolean } = {},
): Promise<TestApp> {
  const database = await openTestDatabase(dialect);
  const workPath = mkdtempSync(join(tmpdir(), "kiln-http-"));
  const settings = defaultSettings(workPath, {
    server: { rootUrl: "http://kiln.test/" },
    security: { secretKey: "test-secret" },
    ...overrides,
  });
  const services = createServices({ db: database.db, settings, logger: silentLogger });
  const app = createApp({ services, settings, logger: silentLogger, validateResponses: true });
  const listening = options.listen ? await listen(app) : undefined;

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.Authorization = `token ${opts.token}`;
    if (opts.basic)
      headers.Authorization = `Basic ${Buffer.from(`${opts.basic[0]}:${opts.basic[1]}`).toString("base64")}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["Content-Type"] = "application/json";
    }
    const init = { method, headers, ...(body !== undefined ? { body } : {}) };
    const res = listening
      ? await fetch(`${listening.url}/api/v1${path}`, { ...init, redirect: "manual" })
      : await app.request(`http://kiln.test/api/v1${path}`, init);
    return readResult(res);
  }

  async function user(
    opts: { admin?: boolean; name?: string; visibility?: "public" | "limited" | "private" } = {},
  ) {
    const name = opts.name ?? uniqueName("user");
    const created = await services.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
      isAdmin: opts.admin ?? false,
      visibility: opts.visibility ?? "public",
    });
    const { secret } = await services.tokens.create(created, "test", ["all"]);
    return { name, id: created.id, token: secret, basic: [name, "password1"] as const };
  }

  return {
    app,
    services,
    settings,
    ...(listening ? { url: listening.url } : {}),
    call,
    user,
    async close() {
      await listening?.close();
      await database.close();
      rmSync(workPath, { recursive: true, force: true });
    },
  };
}

/** A response as tests look at it: status, headers, text, and the parsed JSON when it is JSON. */
export async function readResult(res: Response): Promise<CallResult> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Inserts many bare users quickly (no password hashing), for paging tests. */
export async function bulkUsers(services: Services, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${String(i).padStart(3, "0")}`;
    await users.insertUser(services.ctx.db, { name, lowerName: name, email: `${name}@example.com` });
  }
}

/** Serves the app on a free loopback port with @hono/node-server, as the kiln web process does. */
export async function listen(app: Hono<AppEnv>): Promise<{ url: string; close(): Promise<void> }> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
