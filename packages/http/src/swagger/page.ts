import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Mount } from "../env.js";

const ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
};

/**
 * `GET /api/swagger`: an interactive page for `/swagger.v1.json`, using swagger-ui-dist's files
 * served by Kiln itself (no CDN, so it works offline).
 */
export function mountSwaggerPage(mount: Mount): void {
  const dist = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  mount("get", "/api/swagger", (c) => {
    const root = c.get("settings").server.rootUrl;
    return c.html(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Kiln API</title>
<link rel="stylesheet" href="${root}assets/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${root}assets/swagger-ui/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: "${root}swagger.v1.json", dom_id: "#swagger-ui", deepLinking: true });
</script>
</body>
</html>`);
  });
  mount("get", "/assets/swagger-ui/:file", async (c) => {
    const file = c.req.param("file") ?? "";
    const type = ASSETS[file];
    if (!type) return c.notFound();
    c.header("Content-Type", type);
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(await readFile(join(dist, file)));
  });
}
