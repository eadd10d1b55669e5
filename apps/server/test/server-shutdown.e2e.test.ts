import { existsSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api, createAdmin, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

/** A POST creating a token, sent by hand so that the test decides when its bytes go out. */
function tokenRequest(
  url: string,
  basic: readonly [string, string],
  name: string,
  agent: Agent | false = false,
) {
  const body = JSON.stringify({ name, scopes: ["all"] });
  const req = request(`${url}/api/v1/users/${basic[0]}/tokens`, {
    method: "POST",
    agent,
    headers: {
      Authorization: `Basic ${Buffer.from(basic.join(":")).toString("base64")}`,
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
    },
  });
  const answer = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    req.on("error", reject);
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
  });
  /** Writes part of the body, or the rest of it; resolves once the bytes are in the kernel. */
  const send = (part: "start" | "rest" | "all") =>
    new Promise<void>((resolve, reject) => {
      const half = Math.floor(body.length / 2);
      const chunk = part === "start" ? body.slice(0, half) : part === "rest" ? body.slice(half) : body;
      req.write(chunk, (err) => (err ? reject(err) : resolve()));
      if (part !== "start") req.end();
    });
  return { answer, send };
}

// Each test starts two servers and runs the CLI: generous limits for a loaded machine.
describe("kiln web stops without losing a request and in bounded time", { timeout: 240_000 }, () => {
  const servers: ServerProcess[] = [];
  const start = async (work: string, env: Record<string, string> = {}) => {
    const server = await startServer(work, env);
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) {
      if (server.process.exitCode === null && server.process.signalCode === null) {
        server.signal("SIGKILL");
        await server.exited;
      }
    }
  });

  it("answers on SIGTERM every request whose bytes had arrived, then exits cleanly and releases the work path", async () => {
    const work = tempWorkPath();
    const server = await start(work);
    const { basic } = await createAdmin(server, work, "drainer");

    // Whole requests, each on its own connection, sent before the signal.
    const whole = Array.from({ length: 8 }, (_, i) => tokenRequest(server.url, basic, `whole-${i}`));
    // Requests whose headers and half their body arrived before the signal: still being read.
    const halves = Array.from({ length: 3 }, (_, i) => tokenRequest(server.url, basic, `half-${i}`));
    // A keep-alive connection that served one request, then began a second before the signal.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = tokenRequest(server.url, basic, "kept-1", agent);
    await first.send("all");
    expect(await first.answer).toEqual({ status: 201, connection: "keep-alive" });
    const second = tokenRequest(server.url, basic, "kept-2", agent);

    await Promise.all([
      ...whole.map((r) => r.send("all")),
      ...halves.map((r) => r.send("start")),
      second.send("start"),
    ]);
    server.signal("SIGTERM");
    await server.waitForLog((l) => l.msg === "received signal");
    await Promise.all([...halves.map((r) => r.send("rest")), second.send("rest")]);

    for (const { answer } of whole) expect((await answer).status).toBe(201);
    // Answered during the draining: the connection is closed after the response.
    for (const { answer } of [...halves, second]) {
      expect(await answer).toEqual({ status: 201, connection: "close" });
    }
    expect(await server.exited).toBe(0);
    expect(server.logs.some((l) => l.msg === "stopped")).toBe(true);
    expect(existsSync(join(work, "data", "kiln.lock"))).toBe(false);

    // Nothing acknowledged was lost.
    const again = await start(work);
    const tokens = await api(again.url, "GET", "/users/drainer/tokens?limit=50", { basic });
    expect(tokens.json.map((t: { name: string }) => t.name).sort()).toEqual(
      [
        "drainer-token",
        ...whole.map((_, i) => `whole-${i}`),
        ...halves.map((_, i) => `half-${i}`),
        "kept-1",
        "kept-2",
      ].sort(),
    );
    again.signal("SIGTERM");
    expect(await again.exited).toBe(0);
  });

  it("keeps everything a 2xx acknowledged across kill -9, and starts again", async () => {
    const work = tempWorkPath();
    const server = await start(work);
    const { token } = await createAdmin(server, work, "killed");
    const created = await api(server.url, "POST", "/admin/users", {
      token,
      body: { username: "survivor", email: "survivor@example.com", password: "password1" },
    });
    expect(created.status).toBe(201);
    server.signal("SIGKILL");
    await server.exited;
    expect(existsSync(join(work, "data", "kiln.lock"))).toBe(true);
    const again = await start(work);
    const back = await api(again.url, "GET", "/users/survivor", { token });
    expect(back.status).toBe(200);
    again.signal("SIGTERM");
    expect(await again.exited).toBe(0);
  });

  it("cuts a slow upload short after GRACEFUL_HAMMER_TIME, releases the work path, and starts again", async () => {
    const work = tempWorkPath();
    const server = await start(work, { KILN__SERVER__GRACEFUL_HAMMER_TIME: "2s" });
    const { basic, token } = await createAdmin(server, work, "uploader");
    const repo = await api(server.url, "POST", "/user/repos", { token, body: { name: "big" } });
    expect(repo.status).toBe(201);

    // An LFS upload announcing 200 MiB that sends 1 MiB and then keeps the connection open.
    const size = 200 * 1024 * 1024;
    const upload = request(`${server.url}/uploader/big.git/info/lfs/objects/${"a".repeat(64)}/${size}`, {
      method: "PUT",
      agent: false,
      headers: {
        Authorization: `Basic ${Buffer.from(basic.join(":")).toString("base64")}`,
        "Content-Type": "application/octet-stream",
        "Content-Length": size,
      },
    });
    const outcome = new Promise<string>((resolve) => {
      upload.on("response", (res) => resolve(`answered ${res.statusCode}`));
      upload.on("error", (err: NodeJS.ErrnoException) => resolve(`cut: ${err.code ?? err.message}`));
    });
    await new Promise<void>((resolve, reject) =>
      upload.write(Buffer.alloc(1024 * 1024), (err) => (err ? reject(err) : resolve())),
    );
    server.signal("SIGTERM");

    expect(await server.exited).toBe(1);
    expect(await outcome).toMatch(/^cut: /);
    expect(server.logs.some((l) => l.msg === "stopped" && l.graceful === false)).toBe(true);
    expect(existsSync(join(work, "data", "kiln.lock"))).toBe(false);

    const again = await start(work);
    const back = await api(again.url, "GET", "/repos/uploader/big", { token });
    expect(back.status).toBe(200);
    expect((await api(again.url, "GET", "/user", { token })).json.login).toBe("uploader");
    again.signal("SIGTERM");
    expect(await again.exited).toBe(0);
  });
});
