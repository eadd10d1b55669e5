import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

export async function openTestApp(dialect: DialectName, overrides: SettingsOverrides = {}): Promise<TestApp> {
  const database = await openTestDatabase(dialect);
  const settings = defaultSettings(mkdtempSync(join(tmpdir(), "kiln-http-")), {
    server: { rootUrl: "http://kiln.test/" },
    security: { secretKey: "test-secret" },
    ...overrides,
  });
  const services = createServices({ db: database.db, settings, logger: silentLogger });
  const app = createApp({ services, settings, logger: silentLogger, validateResponses: true });

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
    const res = await app.request(`http://kiln.test/api/v1${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
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

  return { app, services, settings, call, user, close: () => database.close() };
}

/** Inserts many bare users quickly (no password hashing), for paging tests. */
export async function bulkUsers(services: Services, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${String(i).padStart(3, "0")}`;
    await users.insertUser(services.ctx.db, { name, lowerName: name, email: `${name}@example.com` });
  }
}
