export { createWebApp, type WebAppOptions } from "./app.js";
export type { WebContext, WebEnv } from "./env.js";
export type { PageRoute } from "./page-route.js";
export { enabledPages, PAGE_ROUTES } from "./routes/index.js";
export { chooseEncoding, StaticAssets } from "./static/static-assets.js";
