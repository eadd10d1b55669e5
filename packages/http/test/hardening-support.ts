import { request } from "node:http";
import type { DialectName } from "@kiln/storage/testing";
import { expect } from "vitest";
import { createRepo, type TestRepo } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

export const MiB = 1024 * 1024;

/** The hardening tests' fixture: alice's public and private repository, a reader, an organization. */
export interface HardeningWorld {
  readonly t: TestApp;
  readonly alice: TestUser;
  readonly reader: TestUser;
  readonly repo: TestRepo;
  readonly secret: TestRepo;
}

/** Opens a test app with the hardening tests' fixture. */
export async function openHardeningWorld(dialect: DialectName): Promise<HardeningWorld> {
  const t = await openTestApp(dialect);
  const alice = await t.user({ name: "alice" });
  const reader = await t.user({ name: "reader" });
  const repo = await createRepo(t, alice, "hard");
  const secret = await createRepo(t, alice, "secret", { private: true });
  const collab = await t.call("PUT", `${repo.path}/collaborators/reader`, {
    token: alice.token,
    body: { permission: "read" },
  });
  expect(collab.status).toBe(204);
  const org = await t.call("POST", "/orgs", { token: alice.token, body: { username: "hard-org" } });
  expect(org.status).toBe(201);
  return { t, alice, reader, repo, secret };
}

/** A raw request to the app (API or git paths), as a client would send it. */
export const rawSender =
  (app: () => TestApp) =>
  (method: string, path: string, init: RequestInit & { user?: TestUser } = {}) => {
    const headers = new Headers(init.headers);
    if (init.user)
      headers.set("Authorization", `Basic ${Buffer.from(`${init.user.name}:password1`).toString("base64")}`);
    return app().app.request(`http://kiln.test${path}`, {
      method,
      ...init,
      headers,
      ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
  };

/** A request body that yields `chunk`-sized pieces forever, recording how much was pulled and whether it was cancelled. */
export function endlessBody(chunk = 64 * 1024) {
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
export function endlessUpload(port: number, path: string, headers: Record<string, string>, cap = 256 * MiB) {
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
