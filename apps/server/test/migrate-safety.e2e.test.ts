import { existsSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUserWithToken,
  databaseEnv,
  E2E_DATABASES,
  freePort,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

const DISALLOWED = "You can not import from disallowed hosts.";
const UNREADABLE = "Migration failed: the remote repository could not be read.";

/** A `kiln web` with one ordinary user "mover" who owns a repository "src" with one commit. */
async function kilnWithSource(name: (typeof E2E_DATABASES)[number], extra: Record<string, string> = {}) {
  const { env, dispose } = databaseEnv(name, extra);
  const work = tempWorkPath();
  const server = await startServer(work, env);
  const token = await createUserWithToken(server, work, env, "mover");
  const src = await api(server.url, "POST", "/user/repos", {
    token,
    body: { name: "src", auto_init: true },
  });
  expect(src.status).toBe(201);
  const migrate = (clone_addr: string, repo_name: string) =>
    api(server.url, "POST", "/repos/migrate", { token, body: { clone_addr, repo_name } });
  /** Neither a repository row nor a directory on disk. */
  const absent = async (repo: string) => {
    expect((await api(server.url, "GET", `/repos/mover/${repo}`, { token })).status).toBe(404);
    expect(existsSync(join(work, "data", "repositories", "mover", `${repo}.git`))).toBe(false);
  };
  const stop = async () => {
    if (server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  };
  return { server, token, migrate, absent, stop };
}

function listening(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

describe.each(E2E_DATABASES)("migration sources with the real git client (%s)", (name) => {
  let strict: Awaited<ReturnType<typeof kilnWithSource>>;
  let open: Awaited<ReturnType<typeof kilnWithSource>>;
  beforeAll(async () => {
    strict = await kilnWithSource(name);
    open = await kilnWithSource(name, { KILN__MIGRATIONS__ALLOW_LOCALNETWORKS: "true" });
  });
  afterAll(async () => {
    await strict?.stop();
    await open?.stop();
  });

  it("refuses every spelling of a local address by default, creating nothing", async () => {
    const port = strict.server.port;
    const refusals: [string, string][] = [
      [`http://1.2.3.4\\@127.0.0.1:${port}/mover/src.git`, "Invalid URL: backslashes are not allowed."],
      [
        `http://1.2.3.4@evil@127.0.0.1:${port}/mover/src.git`,
        "Invalid URL: more than one '@' before the host is ambiguous.",
      ],
      [`http://127.0.0.1:${port}/mover/src.git`, DISALLOWED],
      [`http://2130706433:${port}/mover/src.git`, DISALLOWED],
      [`http://0x7f000001:${port}/mover/src.git`, DISALLOWED],
      [`http://0177.0.0.1:${port}/mover/src.git`, DISALLOWED],
      [`http://127.1:${port}/mover/src.git`, DISALLOWED],
      [`http://[::1]:${port}/mover/src.git`, DISALLOWED],
      [`http://[::ffff:127.0.0.1]:${port}/mover/src.git`, DISALLOWED],
      [`http://localhost:${port}/mover/src.git`, DISALLOWED],
      [`http://localhost.:${port}/mover/src.git`, DISALLOWED],
      [`http://0.0.0.0:${port}/mover/src.git`, DISALLOWED],
      [`http://169.254.169.254/latest/meta-data`, DISALLOWED],
    ];
    for (const [address, message] of refusals) {
      const res = await strict.migrate(address, "taken");
      expect([res.status, res.json.message], address).toEqual([422, message]);
      await strict.absent("taken");
    }
  });

  it("with ALLOW_LOCALNETWORKS, reaches the address it checked: decimal, hex and localhost. reach this server", async () => {
    const port = open.server.port;
    for (const [address, repo] of [
      [`http://2130706433:${port}/mover/src.git`, "from-decimal"],
      [`http://0x7f000001:${port}/mover/src.git`, "from-hex"],
      [`http://localhost.:${port}/mover/src.git`, "from-localhost"],
    ] as const) {
      const res = await open.migrate(address, repo);
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json).toMatchObject({ full_name: `mover/${repo}`, empty: false, mirror: false });
    }
    // Still refused when local networks are allowed: the URL itself is ambiguous, or the address is never a git host.
    const backslash = await open.migrate(`http://1.2.3.4\\@127.0.0.1:${port}/mover/src.git`, "nope");
    expect([backslash.status, backslash.json.message]).toEqual([
      422,
      "Invalid URL: backslashes are not allowed.",
    ]);
    const unspecified = await open.migrate(`http://0.0.0.0:${port}/mover/src.git`, "nope");
    expect([unspecified.status, unspecified.json.message]).toEqual([422, DISALLOWED]);
    await open.absent("nope");
  });

  it("migrates a real local repository with ALLOW_LOCALNETWORKS, and the copy clones with its history", async () => {
    const res = await open.migrate(`${open.server.url}/mover/src.git`, "copy");
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const dir = scratch();
    await gitOk(dir, ["clone", cloneUrl(open.server.url, "mover", "copy", "mover", "password1"), "c"]);
    expect(await gitOk(join(dir, "c"), ["log", "--format=%s"])).toContain("Initial commit");
  });

  it("answers a closed port, a port that is not git, a missing repository and a redirect with one message", async () => {
    // Everything below is on loopback, so only ALLOW_LOCALNETWORKS lets the server try it at all.
    const closedPort = await freePort();
    const web = createHttpServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<h1>It works!</h1>"),
    );
    const hangUp = createTcpServer((socket) => socket.destroy());
    const redirectHits: string[] = [];
    const redirector = createHttpServer((req, res) => {
      redirectHits.push(req.url ?? "");
      // To a repository that would clone: only the refusal to follow makes this fail.
      res.writeHead(302, {
        location: `${open.server.url}/mover/src.git${(req.url ?? "").replace(/^\/r\.git/, "")}`,
      });
      res.end();
    });
    const [webPort, hangUpPort, redirectPort] = [
      await listening(web),
      await listening(hangUp as unknown as Server),
      await listening(redirector),
    ];
    try {
      const sources = {
        closed: `http://127.0.0.1:${closedPort}/r.git`,
        web: `http://127.0.0.1:${webPort}/r.git`,
        "hang-up": `http://127.0.0.1:${hangUpPort}/r.git`,
        missing: `${open.server.url}/mover/missing.git`,
        redirect: `http://127.0.0.1:${redirectPort}/r.git`,
        unresolvable: "http://no-such-host.invalid/r.git",
      };
      for (const [repo, address] of Object.entries(sources)) {
        const res = await open.migrate(address, `from-${repo}`);
        expect([res.status, res.json], repo).toEqual([422, { message: UNREADABLE, url: expect.any(String) }]);
        await open.absent(`from-${repo}`);
      }
      expect(redirectHits).toHaveLength(1);
      // The server's log keeps what the caller is not told (written in batches: wait for each line).
      const logged = (pattern: RegExp) =>
        open.server.waitForLog(
          (l) => l.msg === "migration: the source could not be read" && pattern.test(String(l.cause)),
        );
      await logged(/Failed to connect|Couldn't connect/);
      await logged(/Empty reply|Connection reset/);
      await logged(/smart HTTP/);
      await logged(/302/);
      await logged(/Authentication failed|not found/);
      await logged(/ENOTFOUND|EAI_AGAIN/);
    } finally {
      await Promise.all(
        [web, hangUp, redirector].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
    }
  });
});
