import type { Settings } from "@kiln/domain";
import type { Logger, Services } from "@kiln/service";
import { Hono } from "hono";
import { mountAttachmentDownloads } from "./attachments/download.js";
import { mountAvatars } from "./avatars/serve.js";
import type { AppEnv, Mount } from "./env.js";
import { onError, onNotFound } from "./errors.js";
import { mountGit } from "./git/git-routes.js";
import { mountPackages } from "./packages/registry.js";
import { apiHandler, enterer } from "./pipeline.js";
import { type AnyRoute, honoPath } from "./route.js";
import { KilnRouter } from "./router.js";
import { allRoutes } from "./routes/index.js";
import { API_VERSION } from "./routes/misc/version.js";
import { buildSwagger } from "./swagger/build.js";
import { mountSwaggerPage } from "./swagger/page.js";
import { mountWeb } from "./web/mount-web.js";

/** What the HTTP app needs from the process that hosts it. */
export interface AppOptions {
  readonly services: Services;
  readonly settings: Settings;
  readonly logger: Logger;
  /** Check every JSON response against its documented schema and fail loudly (tests use this). */
  readonly validateResponses?: boolean;
  /** Extra routes (tests, later features mounting non-API paths). */
  readonly routes?: readonly AnyRoute[];
  /**
   * Writes the request log's line (default: `logger.info` with the same fields). The server
   * gives a writer that formats the line itself, as it is written for every request.
   */
  readonly requestLog?: RequestLog;
  /**
   * Answers the requests outside `/api/` that no route of this app takes (the web interface's
   * pages, which `kiln web` serves on the same port). Without it they are the API's JSON 404.
   */
  readonly fallback?: (request: Request) => Response | Promise<Response>;
}

/** Writes one request's log line: method, path as sent (without the query), status, milliseconds. */
export type RequestLog = (method: string, path: string, status: number, ms: number) => void;

/** The routes registered for these settings (some depend on configuration, e.g. quota). */
export function enabledRoutes(settings: Settings, extra: readonly AnyRoute[] = []): AnyRoute[] {
  return [...allRoutes, ...extra].filter((r) => r.enabled?.(settings) ?? true);
}

/**
 * Builds the Kiln HTTP application: `/api/v1`, its API description, git and LFS, the OAuth2
 * provider's machine endpoints, and a request log; what it does not answer goes to `fallback`. Every route is one handler (no middleware chain): Hono then calls it directly, and an API
 * operation's steps are laid out once per route by {@link apiHandler}.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const { settings, logger } = options;
  const routes = enabledRoutes(settings, options.routes);
  const app = new Hono<AppEnv>({ router: new KilnRouter() });
  const enter = enterer(options);
  const mount: Mount = (method, path, handler) =>
    app.on(method.toUpperCase(), path, (c) => {
      enter(c);
      return handler(c);
    });

  app.onError((err, c) => {
    if (!c.get("settings")) enter(c);
    return onError(err, c);
  });
  const { fallback } = options;
  app.notFound((c) => {
    if (fallback && !c.req.path.startsWith("/api/")) return fallback(c.req.raw);
    enter(c);
    return onNotFound(c);
  });

  // As Forgejo's, the description lists every operation whatever the settings; only the routes
  // of a feature that is off (flags, federation, quota) answer 404. It is rarely asked for and
  // large (about 1 MB of JSON), so it is built on the first request and only its text is kept.
  let swagger: string | undefined;
  mount("get", "/swagger.v1.json", (c) => {
    swagger ??= JSON.stringify(buildSwagger([...allRoutes, ...(options.routes ?? [])], API_VERSION));
    c.header("Content-Type", "application/json");
    return c.body(swagger);
  });
  mount("get", "/api/v1/swagger", (c) => c.redirect(`${settings.server.rootUrl}api/swagger`));
  mountSwaggerPage(mount);
  for (const r of routes) {
    app.on(
      r.method.toUpperCase(),
      `/api/v1${honoPath(r.path)}`,
      apiHandler(r, options, !!options.validateResponses),
    );
  }
  mountAttachmentDownloads(mount);
  mountAvatars(mount);
  mountGit(mount);
  mountPackages(mount);
  mountWeb(mount);
  logRequests(
    app,
    options.requestLog ??
      ((method, path, status, ms) => logger.info({ method, path, status, ms }, "request")),
  );
  return app;
}

/**
 * One log line per request, written when its response is ready: method, path (as sent, without
 * the query), status and milliseconds. Wraps the app's entry point rather than adding a
 * middleware, which would put a chain of promises in front of every route.
 */
function logRequests(app: Hono<AppEnv>, write: RequestLog): void {
  const dispatch = app.fetch;
  const log = (request: Request, response: Response, start: number) => {
    const url = request.url;
    const from = url.indexOf("/", url.indexOf("//") + 2);
    const query = url.indexOf("?", from);
    write(
      request.method,
      from < 0 ? "/" : url.slice(from, query < 0 ? undefined : query),
      response.status,
      Math.round((performance.now() - start) * 10) / 10,
    );
    return response;
  };
  app.fetch = (request, env, executionCtx) => {
    const start = performance.now();
    const response = dispatch(request, env, executionCtx);
    return response instanceof Promise
      ? response.then((done) => log(request, done, start))
      : log(request, response, start);
  };
}
