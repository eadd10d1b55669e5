import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "./env.js";
import { requestHeader, requestTarget } from "./request-header.js";

/** Runs `requestHeader` for each name inside a request, served as Node's server would (raw headers in `env.incoming`) or not. */
async function read(names: string[], headers: Record<string, string>, rawHeaders?: string[]) {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => c.json(names.map((name) => requestHeader(c, name) ?? null)));
  const env = rawHeaders ? { incoming: { rawHeaders } } : undefined;
  const res = await app.request("/", { headers }, env);
  return res.json();
}

describe("requestHeader", () => {
  it("reads Node's raw headers by name in any case, the first of repeated ones", async () => {
    const raw = ["Host", "x", "AUTHORIZATION", "token a", "Sudo", "bob", "authorization", "token b"];
    expect(await read(["authorization", "sudo", "x-forgejo-otp"], {}, raw)).toEqual(["token a", "bob", null]);
  });

  it("falls back to the request's headers when the server is not Node's", async () => {
    expect(await read(["authorization", "sudo"], { Authorization: "token c" })).toEqual(["token c", null]);
  });
});

describe("requestTarget", () => {
  async function target(path: string, incomingUrl?: string) {
    const app = new Hono<AppEnv>();
    app.get("*", (c) => c.text(requestTarget(c)));
    const env = incomingUrl === undefined ? undefined : { incoming: { url: incomingUrl } };
    return (await app.request(path, {}, env)).text();
  }

  it("is the target Node's server received: the path and query as sent", async () => {
    expect(await target("/user?sudo=bob", "/user?sudo=bob")).toBe("/user?sudo=bob");
  });

  it("is the URL when the server is not Node's", async () => {
    expect(await target("/user?sudo=bob")).toBe("http://localhost/user?sudo=bob");
  });
});
