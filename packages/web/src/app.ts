import type { Settings } from "@kiln/domain";
import { actorOf, type Logger, type Services } from "@kiln/service";
import { Hono } from "hono";
import type { WebContext, WebEnv } from "./env.js";
import { errorResponse } from "./errors.js";
import { here, queryFields, readForm } from "./forms.js";
import { errorPage } from "./layout/error-page.js";
import type { PageRoute } from "./page-route.js";
import { seeOther } from "./responses.js";
import { enabledPages } from "./routes/index.js";
import { sessionCookie } from "./security/cookies.js";
import { csrfValid } from "./security/csrf.js";
import { newNonce, securePage } from "./security/headers.js";
import { ASSETS_PATH, StaticAssets } from "./static/static-assets.js";
import { basePath } from "./urls.js";

/** What the web app needs from the process that hosts it. */
export interface WebAppOptions {
  readonly services: Services;
  readonly settings: Settings;
  readonly logger: Logger;
}

/**
 * Builds the web interface: the pages of {@link enabledPages} and their static assets. Each page
 * is one handler that loads the visitor's session, resolves the actor through the same
 * `AuthService` as the API, checks the CSRF token of a post, answers, and puts the security
 * headers on whatever it answered; unmatched paths get the 404 page.
 */
export function createWebApp(options: WebAppOptions): Hono<WebEnv> {
  const { services, settings, logger } = options;
  const assets = new StaticAssets(basePath(settings));
  const app = new Hono<WebEnv>();

  /** Sets the request's variables and who the visitor is. */
  const enter = async (c: WebContext) => {
    c.set("services", services);
    c.set("settings", settings);
    c.set("logger", logger);
    c.set("assets", assets);
    c.set("nonce", newNonce());
    c.set("freshCookie", undefined);
    const cookie = sessionCookie(c);
    const session = cookie ? await services.webSessions.load(cookie) : undefined;
    c.set("session", session);
    c.set("actor", actorOf(services.auth.fromSession(session)));
  };

  const answer = async (c: WebContext, route: PageRoute): Promise<Response> => {
    if (route.access === "signed-in" && !c.get("actor").user) {
      return route.method === "get"
        ? seeOther(c, `/user/login?redirect_to=${encodeURIComponent(here(c))}`)
        : seeOther(c, "/user/login");
    }
    if (route.method === "get") return route.handler(c, queryFields(c));
    const form = await readForm(c);
    if (!route.csrfExempt && !csrfValid(c, form("_csrf"))) {
      return errorPage(c, 400, "Invalid CSRF token. Reload the page and try again.");
    }
    return route.handler(c, form);
  };

  for (const route of enabledPages(settings)) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      await enter(c);
      let response: Response;
      try {
        response = await answer(c, route);
      } catch (err) {
        response = await errorResponse(c, err);
      }
      return securePage(response, c.get("nonce"), route.formsLeaveSite ? { formsLeaveSite: true } : {});
    });
  }
  app.get(`${ASSETS_PATH}/:file`, (c) => assets.serve(c.req.param("file"), c.req.header("accept-encoding")));

  app.notFound(async (c) => {
    await enter(c);
    return securePage(await errorPage(c, 404), c.get("nonce"));
  });
  app.onError(async (err, c) => {
    if (!c.get("settings")) await enter(c);
    return securePage(await errorResponse(c, err), c.get("nonce"));
  });
  return app;
}
