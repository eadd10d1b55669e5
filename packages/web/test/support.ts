import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSettings, type Settings, type SettingsOverrides, type User } from "@kiln/domain";
import { createServices, type Services, silentLogger } from "@kiln/service";
import { type DialectName, openTestDatabase, uniqueName } from "@kiln/storage/testing";
import type { Hono } from "hono";
import { createWebApp } from "../src/app.js";
import type { WebEnv } from "../src/env.js";
import { Browser } from "./browser.js";

/** The web app over a fresh test database, and ways to make accounts and visitors. */
export interface WebTestApp {
  readonly app: Hono<WebEnv>;
  readonly services: Services;
  readonly settings: Settings;
  /** Creates a user straight through the service (password "password1"). */
  user(opts?: {
    name?: string;
    admin?: boolean;
    restricted?: boolean;
    visibility?: User["visibility"];
  }): Promise<User>;
  /** A visitor with an empty cookie jar, talking to the app through `app.request()`. */
  browser(): Browser;
  /** A visitor signed in as `user` through the sign-in form. */
  signedIn(user: User): Promise<Browser>;
  close(): Promise<void>;
}

/** Opens the web app on `dialect` (ROOT_URL `http://kiln.test/` unless overridden). */
export async function openWebTestApp(
  dialect: DialectName,
  overrides: SettingsOverrides = {},
): Promise<WebTestApp> {
  const database = await openTestDatabase(dialect);
  const workPath = mkdtempSync(join(tmpdir(), "kiln-web-"));
  const settings = defaultSettings(workPath, {
    server: { rootUrl: "http://kiln.test/" },
    security: { secretKey: "test-secret" },
    ...overrides,
  });
  const services = createServices({ db: database.db, settings, logger: silentLogger });
  const app = createWebApp({ services, settings, logger: silentLogger });
  const origin = new URL(settings.server.rootUrl).origin;
  const browser = () => new Browser(origin, (url, init) => Promise.resolve(app.request(url, init)));
  return {
    app,
    services,
    settings,
    async user(opts = {}) {
      const name = opts.name ?? uniqueName("user");
      let user = await services.users.create({
        username: name,
        email: `${name}@example.com`,
        password: "password1",
        isAdmin: opts.admin ?? false,
        restricted: opts.restricted ?? false,
        visibility: opts.visibility ?? "public",
      });
      if (opts.restricted) user = (await services.users.findByName(name)) ?? user;
      return user;
    },
    browser,
    async signedIn(user) {
      const b = browser();
      const form = await b.get("/user/login");
      const res = await b.post("/user/login", {
        _csrf: form.field("_csrf"),
        user_name: user.name,
        password: "password1",
      });
      if (res.status !== 303) throw new Error(`sign-in of ${user.name} answered ${res.status}:\n${res.html}`);
      return b;
    },
    async close() {
      await database.close();
      rmSync(workPath, { recursive: true, force: true });
    },
  };
}
