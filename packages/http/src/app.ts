import type { Settings } from "@kiln/domain";
import { ANONYMOUS, type Logger, type Services } from "@kiln/service";
import { Hono } from "hono";
import * as v from "valibot";
import { authenticate, checkAccess } from "./auth.js";
import type { AppContext, AppEnv } from "./env.js";
import { onError, onNotFound } from "./errors.js";
import { mountGit } from "./git/git-routes.js";
import { enforceRouteQuota } from "./quota-enforcement.js";
import { type AnyRoute, honoPath } from "./route.js";
import { allRoutes } from "./routes/index.js";
import { API_VERSION } from "./routes/misc/version.js";
import { buildSwagger } from "./swagger/build.js";
import { mountSwaggerPage } from "./swagger/page.js";
import { checkPathParams, parseInput } from "./validation.js";

/** What the HTTP app needs from the process that hosts it. */
export interface AppOptions {
  readonly services: Services;
  readonly settings: Settings;
  readonly logger: Logger;
  /** Check every JSON response against its documented schema and fail loudly (tests use this). */
  readonly validateResponses?: boolean;
  /** Extra routes (tests, later features mounting non-API paths). */
  readonly routes?: readonly AnyRoute[];
}

/** The routes registered for these settings (some depend on configuration, e.g. quota). */
export function enabledRoutes(settings: Settings, extra: readonly AnyRoute[] = []): AnyRoute[] {
  return [...allRoutes, ...extra].filter((r) => r.enabled?.(settings) ?? true);
}

/** Builds the Kiln HTTP application: `/api/v1`, its API description, and a request log. */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const { services, settings, logger } = options;
  const routes = enabledRoutes(settings, options.routes);
  const app = new Hono<AppEnv>();

  app.use("*", async (c, next) => {
    c.set("services", services);
    c.set("settings", settings);
    c.set("logger", logger);
    c.set("principal", null);
    c.set("actor", ANONYMOUS);
    const start = performance.now();
    await next();
    logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
      },
      "request",
    );
  });
  app.onError(onError);
  app.notFound(onNotFound);

  const swagger = buildSwagger(routes, API_VERSION);
  app.get("/swagger.v1.json", (c) => c.json(swagger));
  app.get("/api/v1/swagger", (c) => c.redirect(`${settings.server.rootUrl}api/swagger`));
  mountSwaggerPage(app);

  app.use("/api/v1/*", authenticate);
  for (const r of routes) {
    app.on(r.method.toUpperCase(), `/api/v1${honoPath(r.path)}`, async (c) => {
      checkAccess(r, c);
      // The repository or organization of the path is resolved for the caller before any body is read.
      const path = checkPathParams(c);
      const repo = r.repo
        ? await services.access.repo(c.get("actor"), path.owner ?? "", path.repo ?? "", r.repo)
        : undefined;
      const org = r.org ? await services.access.org(c.get("actor"), path.org ?? "", r.org) : undefined;
      const input = { ...(await parseInput(r, c, path)), principal: c.get("principal"), repo, org };
      if (r.quota) await enforceRouteQuota(r, c, input);
      const response = await r.handler(c, input);
      if (options.validateResponses) await checkResponse(r, c, response);
      return response;
    });
  }
  mountGit(app);
  return app;
}

/** Fails the request when a JSON response does not match the schema documented for its status. */
async function checkResponse(r: AnyRoute, c: AppContext, response: Response): Promise<void> {
  const doc = r.responses[response.status];
  if (!doc) throw new Error(`${r.operationId} answered ${response.status}, which it does not document`);
  const schema = doc.validate ?? doc.schema;
  if (typeof schema !== "object") return;
  const body: unknown = await response.clone().json();
  const result = v.safeParse(schema, body);
  if (!result.success) {
    const issue = result.issues[0];
    const where = issue?.path?.map((p) => String(p.key)).join(".") ?? "";
    throw new Error(
      `${r.operationId} ${response.status} response does not match its schema at "${where}": ${issue?.message}`,
    );
  }
  void c;
}
