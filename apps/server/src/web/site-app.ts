import { type AppEnv, type AppOptions, createApp } from "@kiln/http";
import { createWebApp } from "@kiln/web";
import type { Hono } from "hono";

/**
 * Everything `kiln web` serves on its one port: the API app (`/api/…`, git and LFS at
 * `/{owner}/{repo}.git/…` and `…/info/lfs/…`, `/swagger.v1.json`, avatars, attachments, the
 * OAuth2 provider's endpoints, `/.well-known/…`) answers first; whatever it has no route for
 * outside `/api/` goes to the web interface's pages. A page can therefore never take a request
 * meant for the API, git or LFS.
 */
export function createSiteApp(options: AppOptions): Hono<AppEnv> {
  const web = createWebApp({
    services: options.services,
    settings: options.settings,
    logger: options.logger,
  });
  return createApp({ ...options, fallback: (request) => web.fetch(request) });
}
