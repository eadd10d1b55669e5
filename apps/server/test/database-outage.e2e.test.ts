import { createFreshDatabase, type FreshDatabase } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createUser,
  freePort,
  kiln,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";
import { PostgresProxy } from "./postgres-proxy.js";

/** Sends `request` every 50 ms until `done` accepts its status (at most ~5 s); returns the last answer. */
async function pollUntil<T extends { status: number }>(
  request: () => Promise<T>,
  done: (status: number) => boolean,
): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const answer = await request();
    if (done(answer.status) || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("kiln web and a PostgreSQL server that is not there", () => {
  it("retries at start-up with a message per try, then exits saying why", async () => {
    const port = await freePort();
    const env = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/kiln`,
      KILN__DATABASE__DB_RETRIES: "2",
      KILN__DATABASE__DB_RETRY_BACKOFF: "100ms",
    };
    const run = await kiln(["web", "--work-path", tempWorkPath(), "--port", String(port)], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /kiln: cannot reach the database after 3 tries \(the database server refused the connection\); giving up/,
    );
    const retries = run.stdout.split("\n").filter((l) => l.includes("trying again in"));
    expect(retries).toHaveLength(2);
    expect(retries[0]).toContain("cannot reach the database (the database server refused the connection)");
  });
});

describe("kiln web when its PostgreSQL server goes away and comes back", () => {
  const work = tempWorkPath();
  let database: FreshDatabase;
  let proxy: PostgresProxy;
  let server: ServerProcess;
  let token: string;
  let owner: string;

  beforeAll(async () => {
    database = await createFreshDatabase();
    proxy = await PostgresProxy.reserve();
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await proxy?.close();
    await database?.drop();
  });

  it("starts once the database appears", async () => {
    const env = {
      DATABASE_URL: database.urlVia(proxy.port),
      KILN__DATABASE__DB_RETRIES: "100",
      KILN__DATABASE__DB_RETRY_BACKOFF: "100ms",
      KILN__SECURITY__CREDENTIAL_CACHE_TTL: "0",
    };
    // The proxy cuts every connection: the server keeps trying until it forwards them.
    await proxy.refuse();
    const starting = startServer(work, env);
    const deadline = Date.now() + 60_000;
    while (proxy.cut < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(proxy.cut).toBeGreaterThanOrEqual(2);
    await proxy.open();
    server = await starting;
    const retried = await server.waitForLog((l) => String(l.msg).startsWith("cannot reach the database"));
    expect(retried.reason).toMatch(/^the connection to the database (was lost|server was reset)/);
    const user = await createUser(server, work, "outage", env);
    token = user.token;
    owner = user.username;
    expect((await api(server.url, "POST", "/user/repos", { token, body: { name: "r" } })).status).toBe(201);
  });

  it("answers 503 while the database is away and 2xx once it is back", async () => {
    expect(server, "the server started").toBeDefined();
    const write = (title: string) =>
      api(server.url, "POST", `/repos/${owner}/r/issues`, { token, body: { title } }).catch(() => ({
        status: 0,
        headers: new Headers(),
        json: undefined,
      }));
    await proxy.close();
    const down = await pollUntil(
      () => write("during the outage"),
      (s) => s !== 201,
    );
    expect(down.status, JSON.stringify(down.json)).toBe(503);
    expect(down.json.message).toMatch(/^The database is unavailable: /);
    expect(Number(down.headers.get("retry-after"))).toBeGreaterThan(0);
    const read = await api(server.url, "GET", `/repos/${owner}/r/issues?state=all`, { token });
    expect(read.status).toBe(503);
    const page = await fetch(`${server.url}/${owner}`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("2");
    expect(await page.text()).toContain("The database is unavailable: ");

    await proxy.open();
    const up = await pollUntil(
      () => write("after the outage"),
      (s) => s === 201,
    );
    expect(up.status).toBe(201);
    expect(server.process.exitCode).toBeNull();
    const found = await api(server.url, "GET", `/repos/${owner}/r/issues/${up.json.number}`, { token });
    expect(found.json.title).toBe("after the outage");
  });
});
