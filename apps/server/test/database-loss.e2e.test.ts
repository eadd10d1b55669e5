import { createFreshDatabase, type FreshDatabase } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUser, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

/** What one request of the load got: a status (0 when the socket was dropped) and the body. */
interface Outcome {
  readonly kind: "read" | "write";
  readonly status: number;
  readonly title?: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  readonly json?: any;
  readonly retryAfter?: string | null;
}

/** Polls `GET /user` until it answers 200 (at most ~5 s); resolves with whether it did. */
async function answersAgain(url: string, token: string): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    try {
      if ((await api(url, "GET", "/user", { token })).status === 200) return true;
    } catch {
      // not answering (yet)
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Waits until `done()` holds, checking every 25 ms, for at most 45 s (then the test fails on what follows). */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

describe("kiln web when PostgreSQL terminates its connections", () => {
  const work = tempWorkPath();
  let database: FreshDatabase;
  let server: ServerProcess;
  let token: string;
  let owner: string;

  beforeAll(async () => {
    database = await createFreshDatabase();
    // No credential cache: every request reads the database, so every request feels the loss.
    const env = { DATABASE_URL: database.urlVia(), KILN__SECURITY__CREDENTIAL_CACHE_TTL: "0" };
    server = await startServer(work, env);
    const user = await createUser(server, work, "loss", env);
    token = user.token;
    owner = user.username;
    const repo = await api(server.url, "POST", "/user/repos", { token, body: { name: "r" } });
    expect(repo.status).toBe(201);
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await database?.drop();
  });

  it("survives the loss of idle connections and answers with fresh ones", async () => {
    expect(await api(server.url, "GET", "/user", { token })).toMatchObject({ status: 200 });
    expect(await database.terminateAll()).toBeGreaterThan(0);
    await server.waitForLog((l) => String(l.msg).startsWith("lost a database connection"));
    expect(await answersAgain(server.url, token)).toBe(true);
    expect(server.process.exitCode).toBeNull();
  });

  it("answers 503 with a message for requests on terminated connections, keeps every acknowledged write", async () => {
    const outcomes: Outcome[] = [];
    let running = true;
    let sequence = 0;
    const one = async (kind: "read" | "write"): Promise<Outcome> => {
      const title = `issue ${sequence++}`;
      try {
        const res =
          kind === "write"
            ? await api(server.url, "POST", `/repos/${owner}/r/issues`, { token, body: { title } })
            : await api(server.url, "GET", `/repos/${owner}/r/issues?state=all&limit=5`, { token });
        return {
          kind,
          status: res.status,
          title,
          json: res.json,
          retryAfter: res.headers.get("retry-after"),
        };
      } catch {
        return { kind, status: 0, title };
      }
    };
    const worker = async (n: number) => {
      for (let i = n; running; i++) outcomes.push(await one(i % 2 === 0 ? "write" : "read"));
    };
    const load = Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    const acknowledged = () => outcomes.filter((o) => o.kind === "write" && o.status === 201).length;
    // Writes are under way before the first termination, however slow the machine is.
    await until(() => acknowledged() >= 2);
    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      terminated += await database.terminateAll();
      await new Promise((r) => setTimeout(r, 250));
    }
    // And the load goes on until a write made after the terminations is acknowledged too.
    const before = acknowledged();
    await until(() => acknowledged() > before);
    running = false;
    await load;

    expect(terminated).toBeGreaterThan(0);
    expect(server.process.exitCode).toBeNull();
    expect(await answersAgain(server.url, token)).toBe(true);
    const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300);
    for (const o of failed) {
      expect(o.status, JSON.stringify(o)).toBe(503);
      expect(o.json.message).toMatch(/^The database is unavailable: /);
      expect(o.json.url).toMatch(/api\/swagger$/);
      expect(Number(o.retryAfter)).toBeGreaterThan(0);
    }
    const written = outcomes.filter((o) => o.kind === "write" && o.status === 201);
    expect(written.length).toBeGreaterThan(0);
    for (const w of written) {
      const found = await api(server.url, "GET", `/repos/${owner}/r/issues/${w.json.number}`, { token });
      expect(found.status).toBe(200);
      expect(found.json.title).toBe(w.title);
    }
  }, 180_000);
});
