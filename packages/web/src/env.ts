import type { Settings } from "@kiln/domain";
import type { Actor, Logger, Services, WebSession } from "@kiln/service";
import type { Context } from "hono";
import type { StaticAssets } from "./static/static-assets.js";

/** What every page request carries through the web app. */
export interface WebEnv {
  Variables: {
    services: Services;
    settings: Settings;
    logger: Logger;
    assets: StaticAssets;
    /** The session the cookie names, signed in or half-way through the TOTP step; undefined for none. */
    session: WebSession | undefined;
    /** The visitor as the access module sees them (anonymous unless a session is signed in). */
    actor: Actor;
    /** A cookie value set on this response for a first-time visitor's forms (see `csrfToken`). */
    freshCookie: string | undefined;
    /** This response's Content-Security-Policy nonce: the only scripts and styles that run carry it. */
    nonce: string;
  };
}

/** A Hono context of the web app. */
export type WebContext = Context<WebEnv>;
