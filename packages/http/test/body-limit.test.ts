import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { silentLogger } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { route } from "../src/route.js";
import { endlessBody, endlessUpload, MiB, openHardeningWorld, rawSender } from "./hardening-support.js";
import type { TestRepo } from "./repos.js";
import type { TestApp, TestUser } from "./support.js";

describe.each(DIALECTS)("bounded request bodies on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let repo: TestRepo;
  const send = rawSender(() => t);

  beforeAll(async () => {
    ({ t, alice, repo } = await openHardeningWorld(dialect));
  });
  afterAll(() => t?.close());

  describe("request bodies are bounded", () => {
    it("answers 413 in Forgejo's shape for a JSON body over [api] MAX_BODY_SIZE", async () => {
      const res = await t.call("POST", "/user/repos", {
        token: alice.token,
        body: { name: "too-big", description: "x".repeat(MiB + 1) },
      });
      expect(res.status).toBe(413);
      expect(res.json).toEqual({
        message: expect.stringContaining("1048576 bytes"),
        url: "http://kiln.test/api/swagger",
      });
      expect((await t.call("GET", "/repos/alice/too-big", { token: alice.token })).status).toBe(404);
    });

    it("refuses a Content-Length over the limit without reading the body", async () => {
      const { stream, seen } = endlessBody();
      const res = await send("POST", "/api/v1/user/repos", {
        user: alice,
        headers: { "Content-Type": "application/json", "Content-Length": String(2 * MiB) },
        body: stream,
      });
      expect(res.status).toBe(413);
      expect(seen.bytes).toBe(0);
    });

    it("stops reading a streamed body once it passes the limit", async () => {
      const { stream, seen } = endlessBody();
      const res = await send("POST", "/api/v1/user/repos", {
        user: alice,
        headers: { "Content-Type": "application/json" },
        body: stream,
      });
      expect(res.status).toBe(413);
      expect(seen.cancelled).toBe(true);
      expect(seen.bytes).toBeLessThan(2 * MiB);
    });

    it("authenticates before reading: an anonymous body is never read", async () => {
      const { stream, seen } = endlessBody();
      const res = await send("POST", "/api/v1/user/repos", {
        headers: { "Content-Type": "application/json" },
        body: stream,
      });
      expect(res.status).toBe(401);
      expect(seen.bytes).toBe(0);
    });

    it("over a real socket, answers an endless body with 413 long before it ends", async () => {
      const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
      await new Promise<void>((resolve) => server.once("listening", () => resolve()));
      const { port } = server.address() as AddressInfo;
      try {
        for (const [path, headers] of [
          [
            "/api/v1/user/repos",
            { Authorization: `token ${alice.token}`, "Content-Type": "application/json" },
          ],
          [
            `/alice/${repo.name}.git/info/lfs/objects/batch`,
            { "Content-Type": "application/vnd.git-lfs+json" },
          ],
        ] as const) {
          const res = await endlessUpload(port, path, headers);
          expect(res.status, path).toBe(413);
          expect(res.body, path).toContain("too large");
          expect(res.sent, path).toBeLessThan(128 * MiB);
        }
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it("honours a route's own bodyLimit and a configured MAX_BODY_SIZE", async () => {
      const echo = route({
        method: "post",
        path: "/kiln-test/echo",
        operationId: "kilnTestEcho",
        tags: ["test"],
        summary: "echo",
        access: "public",
        body: v.object({ text: v.string() }),
        bodyLimit: 64,
        responses: { 200: { description: "ok" } },
        handler: (c, { body }) => c.json(body),
      });
      const app = createApp({
        services: t.services,
        settings: { ...t.settings, api: { ...t.settings.api, maxBodySize: 100 } },
        logger: silentLogger,
        routes: [echo],
      });
      const post = (path: string, text: string) =>
        app.request(`http://kiln.test/api/v1${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `token ${alice.token}` },
          body: JSON.stringify({ text }),
        });
      expect((await post("/kiln-test/echo", "a".repeat(40))).status).toBe(200);
      expect((await post("/kiln-test/echo", "a".repeat(70))).status).toBe(413);
      expect((await post("/user/repos", "a".repeat(70))).status).toBe(422);
      expect((await post("/user/repos", "a".repeat(200))).status).toBe(413);
    });
  });
});
