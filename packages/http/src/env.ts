import type { Settings } from "@kiln/domain";
import type { Actor, Logger, Principal, Services } from "@kiln/service";
import type { Context } from "hono";

/** What every request carries through the Hono app. */
export interface AppEnv {
  Variables: {
    services: Services;
    settings: Settings;
    logger: Logger;
    /** The authenticated caller, or null for anonymous requests. */
    principal: Principal | null;
    /** The same caller as the access module sees it (scopes, `public-only`), resolved once. */
    actor: Actor;
  };
}

/** A Hono context of the Kiln app. */
export type AppContext = Context<AppEnv>;

/**
 * Registers a handler that is not an API operation (git, LFS, the API description's page). The
 * handler runs with the request's variables set, like every route of the app.
 */
export type Mount = (
  method: "get" | "post" | "put" | "delete",
  path: string,
  handler: (c: AppContext) => Response | Promise<Response>,
) => void;
