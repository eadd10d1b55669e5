import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { silentLogger } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { route } from "../src/route.js";
import { createRepo, type TestRepo } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

const MiB = 1024 * 1024;
const BEYOND_BIGINT = "9223372036854775808"; // 2^63
const oid = (n: number) => n.toString(16).padStart(64, "0");

/** A request body that yields `chunk`-sized pieces forever, recording how much was pulled and whether it was cancelled. */
function endlessBody(chunk = 64 * 1024) {
  const seen = { bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.bytes += chunk;
        controller.enqueue(new Uint8Array(chunk).fill(0x20));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/**
 * POSTs an endless chunked body over a real socket (up to `cap` bytes) and resolves with the
 * response, and how much was sent before it came: a server that reads everything never answers.
 */
function endlessUpload(port: number, path: string, headers: Record<string, string>, cap = 256 * MiB) {
  return new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request({ host: "127.0.0.1", port, path, method: "POST", headers });
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const pump = () => {
      while (!answered && sent < cap) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (data) => {
        body += data;
      });
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sent });
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    pump();
  });
}

describe.each(DIALECTS)("bounded input and no 500s on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  /** A raw request to the app (API or git paths), as a client would send it. */
  const send = (method: string, path: string, init: RequestInit & { user?: TestUser } = {}) => {
    const headers = new Headers(init.headers);
    if (init.user)
      headers.set("Authorization", `Basic ${Buffer.from(`${init.user.name}:password1`).toString("base64")}`);
    return t.app.request(`http://kiln.test${path}`, {
      method,
      ...init,
      headers,
      ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    reader = await t.user({ name: "reader" });
    repo = await createRepo(t, alice, "hard");
    secret = await createRepo(t, alice, "secret", { private: true });
    const collab = await t.call("PUT", `${repo.path}/collaborators/reader`, {
      token: alice.token,
      body: { permission: "read" },
    });
    expect(collab.status).toBe(204);
    const org = await t.call("POST", "/orgs", { token: alice.token, body: { username: "hard-org" } });
    expect(org.status).toBe(201);
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

  describe("numbers out of range", () => {
    it("answers an empty page, not 500, for a page beyond 2^63", async () => {
      for (const path of [
        "/orgs",
        "/user/repos",
        "/repos/search",
        "/users/search",
        "/orgs/hard-org/members",
        "/user/orgs",
        `${repo.path}/branches`,
      ]) {
        for (const page of [BEYOND_BIGINT, "9".repeat(30), "9007199254740993"]) {
          const res = await t.call("GET", `${path}?page=${page}&limit=${BEYOND_BIGINT}`, {
            token: alice.token,
          });
          expect(res.status, `${path}?page=${page}`).toBe(200);
          const items = Array.isArray(res.json) ? res.json : res.json.data;
          expect(items, path).toEqual([]);
        }
      }
    });

    it("answers 404 for ids beyond the safe range in the path", async () => {
      for (const path of [
        `/repositories/${BEYOND_BIGINT}`,
        `/teams/${BEYOND_BIGINT}`,
        `/teams/${BEYOND_BIGINT}/members`,
        `/teams/${BEYOND_BIGINT}/repos`,
        "/repositories/99999999999999999999999999",
      ]) {
        expect((await t.call("GET", path, { token: alice.token })).status, path).toBe(404);
      }
    });

    it("answers 422 with the field's name for an integer query value out of range", async () => {
      for (const uid of [BEYOND_BIGINT, "-9223372036854775809", "12345678901234567890123"]) {
        const res = await t.call("GET", `/repos/search?uid=${uid}`, { token: alice.token });
        expect(res.status).toBe(422);
        expect(res.json.message).toMatch(/^\[Uid\]: /);
      }
      const fine = await t.call("GET", `/repos/search?uid=${alice.id}`, { token: alice.token });
      expect(fine.status).toBe(200);
    });
  });

  describe("NUL bytes", () => {
    it("answers 404 for a NUL byte in a path", async () => {
      for (const path of [
        `${repo.path}/branches/ma%00in`,
        `${repo.path}/tags/v%001`,
        `${repo.path}/contents/READ%00ME.md`,
        "/users/ali%00ce",
        "/repos/ali%00ce/hard",
        "/repos/alice/ha%00rd/branches",
        "/orgs/hard%00org",
        "/orgs/hard%00org/members",
      ]) {
        const res = await t.call("GET", path, { token: alice.token });
        expect(res.status, path).toBe(404);
      }
      const del = await t.call("DELETE", `${repo.path}/branches/ma%00in`, { token: alice.token });
      expect(del.status).toBe(404);
    });

    it("answers 401, not 500, for Basic credentials with a NUL byte", async () => {
      const basic = `Basic ${Buffer.from("ali\u0000ce:password1").toString("base64")}`;
      expect((await t.call("GET", "/user", { headers: { Authorization: basic } })).status).toBe(401);
      const git = await send("GET", "/alice/hard.git/info/refs?service=git-upload-pack", {
        headers: { Authorization: basic },
      });
      expect(git.status).toBe(401);
    });

    it("answers 422 for a NUL byte in a query value or key", async () => {
      for (const query of ["q=a%00b", "page=1%00", "a%00=1"]) {
        const res = await t.call("GET", `/repos/search?${query}`, { token: alice.token });
        expect(res.status, query).toBe(422);
        expect(res.json.message).toContain("NUL");
      }
    });

    it("answers 422 naming the field for a NUL byte in a JSON body string", async () => {
      const create = await t.call("POST", "/user/repos", { token: alice.token, body: { name: "a\u0000b" } });
      expect(create.status).toBe(422);
      expect(create.json.message).toBe("[Name]: must not contain NUL bytes");
      const branch = await t.call("POST", `${repo.path}/branches`, {
        token: alice.token,
        body: { new_branch_name: "nul\u0000branch" },
      });
      expect(branch.status).toBe(422);
      expect(branch.json.message).toBe("[NewBranchName]: must not contain NUL bytes");
      const nested = await t.call("POST", `${repo.path}/contents`, {
        token: alice.token,
        body: { files: [{ operation: "create", path: "ok.txt", content: "" }, { path: "x\u0000" }] },
      });
      expect(nested.status).toBe(422);
      expect(nested.json.message).toBe("[Files.1.Path]: must not contain NUL bytes");
    });

    it("answers 404 for git transport and LFS paths with a NUL byte", async () => {
      expect((await send("GET", "/ali%00ce/hard.git/info/refs?service=git-upload-pack")).status).toBe(404);
      const batch = await send("POST", "/alice/ha%00rd.git/info/lfs/objects/batch", {
        headers: { "Content-Type": "application/vnd.git-lfs+json" },
        body: JSON.stringify({ operation: "download", objects: [] }),
      });
      expect(batch.status).toBe(404);
    });
  });

  describe("branch names git refuses", () => {
    it("answers 404 for DELETE of a branch spelled with ./ or ../ segments, and deletes nothing", async () => {
      const made = await t.call("POST", `${repo.path}/branches`, {
        token: alice.token,
        body: { new_branch_name: "a/b" },
      });
      expect(made.status).toBe(201);
      for (const spelled of [
        ".%2Fmain",
        "a%2F.%2Fb",
        "a%2F..%2Fmain",
        "a%2F%2Fb",
        "a%2Fb.lock",
        "..%2F..%2Fconfig",
      ]) {
        const res = await t.call("DELETE", `${repo.path}/branches/${spelled}`, { token: alice.token });
        expect(res.status, spelled).toBe(404);
        expect((await t.call("GET", `${repo.path}/branches/${spelled}`, { token: alice.token })).status).toBe(
          404,
        );
      }
      expect((await t.call("GET", `${repo.path}/branches/a/b`, { token: alice.token })).status).toBe(200);
      expect((await t.call("GET", `${repo.path}/branches/main`, { token: alice.token })).status).toBe(200);
    });
  });

  describe("LFS batch", () => {
    const lfsHeaders = {
      "Content-Type": "application/vnd.git-lfs+json",
      Accept: "application/vnd.git-lfs+json",
    };
    const batch = (path: string, body: string | ReadableStream<Uint8Array>, user?: TestUser) =>
      send("POST", `/alice/${path}.git/info/lfs/objects/batch`, {
        headers: lfsHeaders,
        body,
        ...(user ? { user } : {}),
      });

    it("does not read the body of an anonymous batch to a private repository", async () => {
      const { stream, seen } = endlessBody();
      const res = await batch(secret.name, stream);
      expect(res.status).toBe(401);
      expect(seen.bytes).toBe(0);
    });

    it("answers 413 for a batch body over the limit, without reading all of it", async () => {
      const { stream, seen } = endlessBody();
      const res = await batch(repo.name, stream);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toContain("application/vnd.git-lfs+json");
      expect(seen.cancelled).toBe(true);
      expect(seen.bytes).toBeLessThan(2 * MiB);
      const declared = await send("POST", `/alice/${repo.name}.git/info/lfs/objects/batch`, {
        headers: { ...lfsHeaders, "Content-Length": String(200 * MiB) },
        body: endlessBody().stream,
      });
      expect(declared.status).toBe(413);
    });

    it("answers 413 for more objects than [server] LFS_MAX_BATCH_SIZE", async () => {
      const objects = Array.from({ length: 1001 }, (_, i) => ({ oid: oid(i), size: 1 }));
      const res = await batch(repo.name, JSON.stringify({ operation: "download", objects }), alice);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toContain("application/vnd.git-lfs+json");
      expect(((await res.json()) as { message: string }).message).toBeTruthy();
      const fits = await batch(
        repo.name,
        JSON.stringify({ operation: "download", objects: objects.slice(0, 1000) }),
        alice,
      );
      expect(fits.status).toBe(200);
      const answered = (await fits.json()) as { objects: unknown[] };
      expect(answered.objects).toHaveLength(1000);
    });

    it("answers 422 with an LFS error for bodies with null or missing parts", async () => {
      for (const body of [
        "null",
        "[]",
        '"download"',
        "{}",
        '{"objects":null}',
        '{"operation":"download","objects":null}',
        '{"operation":"download","objects":[null]}',
        '{"operation":"download","objects":[{"oid":null}]}',
        '{"operation":"download","objects":[{"oid":null,"size":null}]}',
        '{"operation":"upload","objects":[5, "x", []]}',
        '{"objects":[{"oid":"x","size":1}]}',
        '{"operation":null,"objects":[]}',
      ]) {
        const res = await batch(repo.name, body, alice);
        expect(res.status, body).toBe(422);
        expect(res.headers.get("content-type"), body).toContain("application/vnd.git-lfs+json");
        expect(((await res.json()) as { message: string }).message, body).toBeTruthy();
      }
      const notJson = await batch(repo.name, "{nope", alice);
      expect(notJson.status).toBe(400);
    });

    it("checks write access for uploads after reading the body", async () => {
      const body = JSON.stringify({ operation: "upload", objects: [{ oid: oid(1), size: 1 }] });
      expect((await batch(repo.name, body, reader)).status).toBe(403);
      expect((await batch(repo.name, body)).status).toBe(401);
      expect((await batch(repo.name, body, alice)).status).toBe(200);
      const download = JSON.stringify({ operation: "download", objects: [{ oid: oid(1), size: 1 }] });
      expect((await batch(repo.name, download, reader)).status).toBe(200);
    });

    it("bounds the verify body and answers 422 for null parts", async () => {
      const verify = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
        send("POST", `/alice/${repo.name}.git/info/lfs/verify`, {
          user: alice,
          headers: { ...lfsHeaders, ...headers },
          body,
        });
      const { stream, seen } = endlessBody();
      expect((await verify(stream)).status).toBe(413);
      expect(seen.cancelled).toBe(true);
      for (const body of ["null", "{}", '{"oid":null,"size":null}', "[1]"]) {
        const res = await verify(body);
        expect(res.status, body).toBe(422);
        expect(res.headers.get("content-type")).toContain("application/vnd.git-lfs+json");
      }
      expect((await verify(JSON.stringify({ oid: oid(7), size: 3 }))).status).toBe(404);
    });
  });
});
