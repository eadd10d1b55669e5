import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, kiln, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

describe("kiln web on the embedded database, driven like a user would", () => {
  let work: string;
  let server: ServerProcess;
  let adminToken: string;
  const basic = ["admin1", "password1"] as const;

  beforeAll(async () => {
    work = tempWorkPath();
    server = await startServer(work);
  });
  afterAll(async () => {
    if (server.process.exitCode === null) {
      server.signal("SIGKILL");
      await server.exited;
    }
  });

  it("creates an admin with the CLI while the server runs", async () => {
    const res = await kiln([
      "admin",
      "user",
      "create",
      "--work-path",
      work,
      "--username",
      "admin1",
      "--password",
      "password1",
      "--email",
      "admin1@example.com",
      "--admin",
      "--must-change-password=false",
    ]);
    expect(res.stderr).toBe("");
    expect(res.stdout).toBe("New user 'admin1' has been successfully created!\n");
    expect(res.code).toBe(0);
  });

  it("creates a token through the API with Basic auth and uses it on GET /user", async () => {
    const created = await api(server.url, "POST", "/users/admin1/tokens", {
      basic,
      body: { name: "main", scopes: ["all"] },
    });
    expect(created.status).toBe(201);
    adminToken = created.json.sha1;
    const me = await api(server.url, "GET", "/user", { token: adminToken });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      id: 1,
      login: "admin1",
      username: "admin1",
      email: "admin1@example.com",
      is_admin: true,
    });
    for (const field of [
      "avatar_url",
      "html_url",
      "created",
      "last_login",
      "visibility",
      "full_name",
      "login_name",
    ]) {
      expect(me.json).toHaveProperty(field);
    }
  });

  it("answers 401 without a token or with an invalid one", async () => {
    expect((await api(server.url, "GET", "/user")).status).toBe(401);
    expect((await api(server.url, "GET", "/user", { token: "f".repeat(40) })).status).toBe(401);
  });

  it("refuses a read:user token on POST /user/emails with 403", async () => {
    const ro = await api(server.url, "POST", "/users/admin1/tokens", {
      basic,
      body: { name: "read-only", scopes: ["read:user"] },
    });
    const res = await api(server.url, "POST", "/user/emails", {
      token: ro.json.sha1,
      body: { emails: ["x@example.org"] },
    });
    expect(res.status).toBe(403);
    expect(res.json.message).toContain("write:user");
  });

  it("rejects a duplicate token name with 400 and deletes a token by name", async () => {
    const dup = await api(server.url, "POST", "/users/admin1/tokens", {
      basic,
      body: { name: "read-only", scopes: ["all"] },
    });
    expect(dup.status).toBe(400);
    expect(dup.json.message).toBe("access token name has been used already");
    const del = await api(server.url, "DELETE", "/users/admin1/tokens/read-only", { basic });
    expect(del.status).toBe(204);
    const list = await api(server.url, "GET", "/users/admin1/tokens", { token: adminToken });
    expect(list.json.map((t: { name: string }) => t.name)).toEqual(["main"]);
  });

  it("pages GET /admin/users with X-Total-Count and a Forgejo Link header, at most 50 per page", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await api(server.url, "POST", "/admin/users", {
        token: adminToken,
        body: {
          username: `member${i}`,
          email: `member${i}@example.com`,
          password: "password1",
          must_change_password: false,
        },
      });
      expect(res.status).toBe(201);
    }
    const one = await api(server.url, "GET", "/admin/users?limit=1", { token: adminToken });
    expect(one.json).toHaveLength(1);
    expect(one.headers.get("x-total-count")).toBe("4");
    expect(one.headers.get("link")).toBe(
      `<http://localhost:${server.port}/api/v1/admin/users?limit=1&page=2>; rel="next",<http://localhost:${server.port}/api/v1/admin/users?limit=1&page=4>; rel="last"`,
    );
    const all = await api(server.url, "GET", "/admin/users?limit=500", { token: adminToken });
    expect(all.json.length).toBeLessThanOrEqual(50);
    expect(all.json).toHaveLength(4);
  });

  it("logs one structured line per request: method, path, status and duration", async () => {
    await api(server.url, "GET", "/settings/ui");
    const line = server.logs.find((l) => l.path === "/api/v1/settings/ui");
    expect(line).toMatchObject({ msg: "request", method: "GET", status: 200 });
    expect(typeof line?.ms).toBe("number");
  });

  it("routes other CLI commands through the running server", async () => {
    const list = await kiln(["admin", "user", "list", "--work-path", work]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^ID\s+Username\s+Email\s+IsActive\s+IsAdmin\s+2FA\n1\s+admin1\s+admin1@example\.com\s+true\s+true\s+false/,
    );
    const raw = await kiln([
      "admin",
      "user",
      "generate-access-token",
      "--work-path",
      work,
      "-u",
      "member0",
      "-t",
      "cli",
      "--raw",
    ]);
    expect(raw.code).toBe(0);
    const token = raw.stdout.trim();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect((await api(server.url, "GET", "/user", { token })).json.login).toBe("member0");
    const dup = await kiln([
      "admin",
      "user",
      "generate-access-token",
      "--work-path",
      work,
      "-u",
      "member0",
      "-t",
      "cli",
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe("access token name has been used already");
    const del = await kiln(["admin", "user", "delete", "--work-path", work, "--username", "member2"]);
    expect(del.code).toBe(0);
    expect((await api(server.url, "GET", "/users/member2", { token: adminToken })).status).toBe(404);
  });

  it("refuses a second server on the same work path", async () => {
    const second = await kiln(["web", "--work-path", work, "--port", "0"]);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain("another kiln server");
  });

  it("finishes requests in flight on SIGTERM, then exits cleanly and releases the work path", async () => {
    const auth = `Basic ${Buffer.from(basic.join(":")).toString("base64")}`;
    let connected = 0;
    const inFlight = Array.from(
      { length: 8 },
      (_, i) =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            `${server.url}/api/v1/users/admin1/tokens`,
            { method: "POST", headers: { Authorization: auth, "Content-Type": "application/json" } },
            (res) => {
              res.resume();
              res.on("end", () => resolve(res.statusCode ?? 0));
            },
          );
          req.on("error", reject);
          req.on("socket", (s) => s.on("connect", () => connected++));
          req.end(JSON.stringify({ name: `in-flight-${i}`, scopes: ["all"] }));
        }),
    );
    while (connected < 8) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 30));
    server.signal("SIGTERM");
    expect(await Promise.all(inFlight)).toEqual(Array(8).fill(201));
    // Some of them were still being handled when the signal arrived, and were answered after it.
    const signalled = server.logs.findIndex((l) => l.msg === "received signal");
    expect(signalled).toBeGreaterThan(0);
    expect(
      server.logs.slice(signalled).filter((l) => l.msg === "request" && l.status === 201).length,
    ).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
    expect(server.logs.some((l) => l.msg === "stopped")).toBe(true);
    expect(existsSync(join(work, "data", "kiln.lock"))).toBe(false);
  });

  it("keeps everything a 2xx acknowledged across kill -9, and starts again", async () => {
    server = await startServer(work);
    const tokens = await api(server.url, "GET", "/users/admin1/tokens?limit=50", { token: adminToken });
    expect(tokens.json.map((t: { name: string }) => t.name)).toContain("in-flight-7");
    const created = await api(server.url, "POST", "/admin/users", {
      token: adminToken,
      body: { username: "survivor", email: "survivor@example.com", password: "password1" },
    });
    expect(created.status).toBe(201);
    server.signal("SIGKILL");
    await server.exited;
    expect(existsSync(join(work, "data", "kiln.lock"))).toBe(true);
    server = await startServer(work);
    const back = await api(server.url, "GET", "/users/survivor", { token: adminToken });
    expect(back.status).toBe(200);
    server.signal("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});

describe("kiln start-up and CLI errors", () => {
  it("stops with a message naming the key on a bad configuration value", async () => {
    const work = tempWorkPath();
    mkdirSync(join(work, "custom", "conf"), { recursive: true });
    writeFileSync(join(work, "custom", "conf", "app.ini"), "[server]\nHTTP_PORT = abc\n");
    const res = await kiln(["web", "--work-path", work]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'kiln: invalid value for [server] HTTP_PORT: "abc" is not a port number (0-65535)',
    );
    const viaEnv = await kiln(["web", "--work-path", tempWorkPath()], { KILN__SERVER__HTTP_PORT: "abc" });
    expect(viaEnv.stderr).toContain("[server] HTTP_PORT");
    const missing = await kiln(["web", "--config", join(work, "nope.ini")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("does not exist");
  });

  it("gives --help for every command and a one-line error for bad arguments", async () => {
    for (const args of [
      [],
      ["web"],
      ["migrate"],
      ["admin"],
      ["admin", "user"],
      ["admin", "user", "create"],
      ["admin", "user", "generate-access-token"],
      ["admin", "user", "list"],
      ["admin", "user", "delete"],
    ]) {
      const res = await kiln([...args, "--help"]);
      expect(res.code, args.join(" ")).toBe(0);
      expect(res.stdout).toContain("Usage: kiln");
    }
    const bad = await kiln(["admin", "user", "create", "--username", "x"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect((await kiln(["no-such-command"])).code).not.toBe(0);
    expect((await kiln(["web", "--port", "http"])).stderr).toContain("not a port number");
  });

  it("migrates a fresh work path without a server, then reports it up to date", async () => {
    const work = tempWorkPath();
    const first = await kiln(["migrate", "--work-path", work]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Applied migration 2026-11-21-0001-accounts");
    const second = await kiln(["migrate", "-w", work]);
    expect(second.stdout.trim()).toBe("The database is up to date.");
  });
});
