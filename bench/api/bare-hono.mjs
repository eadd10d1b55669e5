// The reference: a bare Hono app with one trivial JSON handler on @hono/node-server, the same
// libraries and versions Kiln's server uses. Prints its URL on stdout once it listens.
//   node bench/api/bare-hono.mjs
const hono = await import("../../apps/server/node_modules/hono/dist/index.js");
const { serve } = await import("../../apps/server/node_modules/@hono/node-server/dist/index.mjs");

const app = new hono.Hono();
app.get("/api/v1/version", (c) => c.json({ version: "bare" }));
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`http://127.0.0.1:${info.port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
