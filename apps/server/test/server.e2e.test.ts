import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createAdmin,
  createUser,
  kiln,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

describe("kiln web on the embedded database, driven like a user would", () => {
  let work: string;
  let server: ServerProcess;

  beforeAll(async () => {
    work = tempWorkPath();
    server = await startServer(work);
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGKILL");
      await server.exited;
    }
  });

  it("creates an admin with the CLI while the server runs, then a token through the API for GET /user", async () => {
    const res = await kiln([
      "admin",
      "user",
      "create",
      "--work-path",
      work,
      "--username",
      "cliadmin",
      "--password",
      "password1",
      "--email",
      "cliadmin@example.com",
      "--admin",
      "--must-change-password=false",
    ]);
    expect(res.stderr).toBe("");
    expect(res.stdout).toBe("New user 'cliadmin' has been successfully created!\n");
    expect(res.code).toBe(0);
    const created = await api(server.url, "POST", "/users/cliadmin/tokens", {
      basic: ["cliadmin", "password1"],
      body: { name: "main", scopes: ["all"] },
    });
    expect(created.status).toBe(201);
    const me = await api(server.url, "GET", "/user", { token: created.json.sha1 });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      login: "cliadmin",
      username: "cliadmin",
      email: "cliadmin@example.com",
      is_admin: true,
    });
    for (const field of [
      "id",
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

  it("reads credentials and Sudo from the request's headers whatever their case", async () => {
    const admin = await createUser(server, work, "sudoadmin", {}, { admin: true });
    const other = await createUser(server, work, "sudotarget");
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${server.url}/api/v1/user`);
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const asAdmin = await get({ AUTHORIZATION: `token ${admin.token}` });
    expect([asAdmin.status, JSON.parse(asAdmin.body).login]).toEqual([200, "sudoadmin"]);
    const asOther = await get({ authorization: `token ${admin.token}`, SUDO: "sudotarget" });
    expect([asOther.status, JSON.parse(asOther.body).login]).toEqual([200, "sudotarget"]);
    const refused = await get({ Authorization: `token ${other.token}`, sudo: "sudoadmin" });
    expect(refused.status).toBe(403);
    expect((await get({ authorization: `token ${"0".repeat(40)}` })).status).toBe(401);
  });

  it("answers 401 without a token or with an invalid one", async () => {
    expect((await api(server.url, "GET", "/user")).status).toBe(401);
    expect((await api(server.url, "GET", "/user", { token: "f".repeat(40) })).status).toBe(401);
  });

  it("refuses a read:user token on POST /user/emails with 403", async () => {
    const { basic } = await createAdmin(server, work, "scoped");
    const ro = await api(server.url, "POST", "/users/scoped/tokens", {
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
    const { basic } = await createAdmin(server, work, "tokens");
    const first = await api(server.url, "POST", "/users/tokens/tokens", {
      basic,
      body: { name: "second", scopes: ["read:user"] },
    });
    expect(first.status).toBe(201);
    const dup = await api(server.url, "POST", "/users/tokens/tokens", {
      basic,
      body: { name: "second", scopes: ["all"] },
    });
    expect(dup.status).toBe(400);
    expect(dup.json.message).toBe("access token name has been used already");
    const del = await api(server.url, "DELETE", "/users/tokens/tokens/second", { basic });
    expect(del.status).toBe(204);
    const list = await api(server.url, "GET", "/users/tokens/tokens", { basic });
    expect(list.json.map((t: { name: string }) => t.name)).toEqual(["tokens-token"]);
  });

  it("pages GET /admin/users with X-Total-Count and a Forgejo Link header, at most 50 per page", async () => {
    const { token } = await createAdmin(server, work, "pager");
    const before = Number(
      (await api(server.url, "GET", "/admin/users?limit=1", { token })).headers.get("x-total-count"),
    );
    for (let i = 0; i < 3; i++) {
      const res = await api(server.url, "POST", "/admin/users", {
        token,
        body: {
          username: `paged${i}`,
          email: `paged${i}@example.com`,
          password: "password1",
          must_change_password: false,
        },
      });
      expect(res.status).toBe(201);
    }
    const total = before + 3;
    const one = await api(server.url, "GET", "/admin/users?limit=1", { token });
    expect(one.json).toHaveLength(1);
    expect(one.headers.get("x-total-count")).toBe(String(total));
    expect(one.headers.get("link")).toBe(
      `<http://localhost:${server.port}/api/v1/admin/users?limit=1&page=2>; rel="next",<http://localhost:${server.port}/api/v1/admin/users?limit=1&page=${total}>; rel="last"`,
    );
    const all = await api(server.url, "GET", "/admin/users?limit=500", { token });
    expect(all.json).toHaveLength(Math.min(total, 50));
  });

  it("logs one structured line per request: method, path, status and duration", async () => {
    await api(server.url, "GET", "/settings/ui");
    const line = await server.waitForLog((l) => l.path === "/api/v1/settings/ui");
    expect(line).toMatchObject({ msg: "request", method: "GET", status: 200 });
    expect(typeof line.ms).toBe("number");
  });

  it("routes other CLI commands through the running server", async () => {
    const { token } = await createAdmin(server, work, "routed");
    for (const name of ["routed0", "routed1"]) {
      const res = await api(server.url, "POST", "/admin/users", {
        token,
        body: {
          username: name,
          email: `${name}@example.com`,
          password: "password1",
          must_change_password: false,
        },
      });
      expect(res.status).toBe(201);
    }
    const list = await kiln(["admin", "user", "list", "--work-path", work]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+Username\s+Email\s+IsActive\s+IsAdmin\s+2FA\n/);
    expect(list.stdout).toMatch(/\n\d+\s+routed\s+routed@example\.com\s+true\s+true\s+false\n/);
    const generate = (extra: string[]) =>
      kiln([
        "admin",
        "user",
        "generate-access-token",
        "--work-path",
        work,
        "-u",
        "routed0",
        "-t",
        "cli",
        ...extra,
      ]);
    const raw = await generate(["--raw"]);
    expect(raw.code).toBe(0);
    const generated = raw.stdout.trim();
    expect(generated).toMatch(/^[0-9a-f]{40}$/);
    expect((await api(server.url, "GET", "/user", { token: generated })).json.login).toBe("routed0");
    const dup = await generate([]);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe("access token name has been used already");
    const del = await kiln(["admin", "user", "delete", "--work-path", work, "--username", "routed1"]);
    expect(del.code).toBe(0);
    expect((await api(server.url, "GET", "/users/routed1", { token })).status).toBe(404);
  });

  it("refuses a second server on the same work path", async () => {
    const second = await kiln(["web", "--work-path", work, "--port", "0"]);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain("another kiln server");
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
    // Two processes, each opening PGlite and the first applying every migration: on a loaded
    // two-core machine that took over a minute.
  }, 180_000);
});
