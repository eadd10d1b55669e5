import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSettings, type Settings, type SettingsOverrides } from "@kiln/domain";
import type { AppEnv } from "@kiln/http";
import { createServices, type Services, silentLogger } from "@kiln/service";
import { type DialectName, openTestDatabase, uniqueName } from "@kiln/storage/testing";
import type { Hono } from "hono";
import { createSiteApp } from "../src/web/site-app.js";
import { WebBrowser } from "./web-browser.js";

// biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
type Json = any;

/** A user made for a test: password `password1` and an `all` token. */
export interface SiteUser {
  readonly name: string;
  readonly id: number;
  readonly token: string;
}

/** What `kiln web` serves (API and pages together) over a fresh test database, called through `app.request()`. */
export interface SiteTestApp {
  readonly app: Hono<AppEnv>;
  readonly services: Services;
  readonly settings: Settings;
  /** Calls `/api/v1{path}` with a token; JSON in and out. */
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown },
  ): Promise<{ status: number; headers: Headers; json: Json }>;
  user(opts?: { admin?: boolean; name?: string }): Promise<SiteUser>;
  /** A browser with an empty cookie jar. */
  browser(): WebBrowser;
  close(): Promise<void>;
}

/** Opens the composed app (ROOT_URL `http://kiln.test/` unless overridden). */
export async function openSiteTestApp(
  dialect: DialectName,
  overrides: SettingsOverrides = {},
): Promise<SiteTestApp> {
  const database = await openTestDatabase(dialect);
  const workPath = mkdtempSync(join(tmpdir(), "kiln-site-"));
  const settings = defaultSettings(workPath, {
    server: { rootUrl: "http://kiln.test/" },
    security: { secretKey: "test-secret" },
    ...overrides,
  });
  const services = createServices({ db: database.db, settings, logger: silentLogger });
  const app = createSiteApp({ services, settings, logger: silentLogger, validateResponses: true });
  const origin = new URL(settings.server.rootUrl).origin;
  return {
    app,
    services,
    settings,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.token) headers.authorization = `token ${opts.token}`;
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      const res = await app.request(`${origin}/api/v1${path}`, {
        method,
        headers,
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json };
    },
    async user(opts = {}) {
      const name = opts.name ?? uniqueName("user");
      const created = await services.users.create({
        username: name,
        email: `${name}@example.com`,
        password: "password1",
        isAdmin: opts.admin ?? false,
      });
      const { secret } = await services.tokens.create(created, "test", ["all"]);
      return { name, id: created.id, token: secret };
    },
    browser: () => new WebBrowser(origin, (url, init) => Promise.resolve(app.request(url, init))),
    async close() {
      await database.close();
      rmSync(workPath, { recursive: true, force: true });
    },
  };
}
