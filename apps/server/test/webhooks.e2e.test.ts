import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dropPostgresSchema, testPostgresUrl } from "@kiln/storage/testing";
import { afterAll, describe, expect, it } from "vitest";
import { api, createUser, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

const schema = `kiln_e2e_hooks_${randomBytes(5).toString("hex")}`;
const SETUPS = [
  { name: "the embedded database", env: {} as Record<string, string> },
  { name: "PostgreSQL", env: { DATABASE_URL: testPostgresUrl(), KILN__DATABASE__SCHEMA: schema } },
];
const HOOK_ENV = {
  KILN__WEBHOOK__ALLOWED_HOST_LIST: "loopback",
  KILN__WEBHOOK__DELIVER_TIMEOUT: "1",
  KILN__WEBHOOK__RETRY_BACKOFF: "100ms",
};

interface Arrival {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A receiver that, while `hang` is set, reads requests but never answers them. */
async function receiver() {
  const arrivals: Arrival[] = [];
  const hanging: ServerResponse[] = [];
  let wake: (() => void)[] = [];
  const state = { hang: true };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrivals.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      for (const w of wake.splice(0)) w();
      if (state.hang) hanging.push(res);
      else res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    state,
    async waitFor(n: number) {
      while (arrivals.length < n) await new Promise<void>((resolve) => wake.push(resolve));
      return arrivals;
    },
    close: () =>
      new Promise<void>((resolve) => {
        wake = [];
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(SETUPS)("webhook deliveries survive kill -9, kiln web on $name", ({ env }) => {
  const work = tempWorkPath();
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGKILL");
      await server.exited;
    }
    if (env.DATABASE_URL) await dropPostgresSchema(schema);
  });

  it("a delivery in flight when the server is killed is sent after the restart, with the same delivery id", async () => {
    const hooked = await receiver();
    try {
      server = await startServer(work, { ...env, ...HOOK_ENV });
      const alice = await createUser(server, work, "alice", env);
      expect(
        (
          await api(server.url, "POST", "/user/repos", {
            token: alice.token,
            body: { name: "r", auto_init: true },
          })
        ).status,
      ).toBe(201);
      const hook = await api(server.url, "POST", "/repos/alice/r/hooks", {
        token: alice.token,
        body: {
          type: "forgejo",
          config: { url: hooked.url, content_type: "json", secret: "k" },
          events: ["issues_only"],
          active: true,
        },
      });
      expect(hook.status).toBe(201);
      const issue = await api(server.url, "POST", "/repos/alice/r/issues", {
        token: alice.token,
        body: { title: "lost?" },
      });
      expect(issue.status).toBe(201);
      // The first attempt reaches the receiver, which holds it unanswered; then the server dies.
      const [first] = await hooked.waitFor(1);
      server.signal("SIGKILL");
      await server.exited;
      hooked.state.hang = false;

      server = await startServer(work, { ...env, ...HOOK_ENV });
      // The killed process's claim lapses (DELIVER_TIMEOUT plus a margin) and the row is due again.
      const arrivals = await hooked.waitFor(2);
      const again = arrivals[1] as Arrival;
      expect(again.headers["x-forgejo-delivery"]).toBe(first?.headers["x-forgejo-delivery"]);
      expect(again.body).toBe(first?.body);
      expect(again.headers["x-forgejo-signature"]).toBe(
        createHmac("sha256", "k").update(again.body).digest("hex"),
      );
      expect(JSON.parse(again.body)).toMatchObject({ action: "opened", issue: { title: "lost?" } });
      let history = await api(server.url, "GET", `/repos/alice/r/hooks/${hook.json.id}/deliveries`, {
        token: alice.token,
      });
      while (!history.json[0]?.delivered) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        history = await api(server.url, "GET", `/repos/alice/r/hooks/${hook.json.id}/deliveries`, {
          token: alice.token,
        });
      }
      expect(history.json).toHaveLength(1);
      expect(history.json[0]).toMatchObject({
        succeeded: true,
        attempts: 2,
        response: { status: 200, body: "ok" },
      });
      server.signal("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      await hooked.close();
    }
  }, 180_000);
});
