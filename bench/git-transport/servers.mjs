// Two equally small node:http servers over the same repository root: one mounts Kiln's
// transport handlers, the other spawns `git http-backend` (CGI) per request.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

function listen(server) {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Kiln: node request → web Request → handleGitHttp → web Response → node response. */
export function startKilnServer(git, store, options = {}) {
  return listen(
    createServer(async (req, res) => {
      try {
        const url = new URL(req.url, "http://127.0.0.1");
        const match = /^\/([^/]+)\/([^/]+)\.git\/(.*)$/.exec(url.pathname);
        if (!match) return res.writeHead(404).end();
        const repo = await store.open(match[1], match[2]);
        const hasBody = req.method === "POST";
        const request = new Request(url, {
          method: req.method,
          headers: req.headers,
          ...(hasBody ? { body: Readable.toWeb(req), duplex: "half" } : {}),
        });
        const response = await git.handleGitHttp(repo, match[3], request, options);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) await pipeline(Readable.fromWeb(response.body), res);
        else res.end();
      } catch (error) {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else res.destroy();
      }
    }),
  );
}

/** git http-backend as CGI: one process per request, headers parsed from its output. */
export function startHttpBackendServer(projectRoot) {
  return listen(
    createServer((req, res) => {
      const url = new URL(req.url, "http://127.0.0.1");
      const env = {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        REMOTE_USER: "bench",
        REMOTE_ADDR: "127.0.0.1",
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        ...(req.headers["content-encoding"]
          ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }
          : {}),
        ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: req.headers["git-protocol"] } : {}),
      };
      const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "inherit"] });
      req.pipe(child.stdin);
      let head = Buffer.alloc(0);
      let headersDone = false;
      child.stdout.on("data", (chunk) => {
        if (headersDone) {
          if (!res.write(chunk)) {
            child.stdout.pause();
            res.once("drain", () => child.stdout.resume());
          }
          return;
        }
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        headersDone = true;
        let status = 200;
        const headers = {};
        for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
          const colon = line.indexOf(":");
          const name = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
          else headers[name] = value;
        }
        res.writeHead(status, headers);
        res.write(head.subarray(end + 4));
      });
      child.stdout.on("end", () => res.end());
    }),
  );
}

/**
 * The whole Kiln server: `kiln web` on a fresh work path (embedded PGlite) with an admin `bench`,
 * so clone and push go through authentication, permission checks, the push policy and the size
 * and quota bookkeeping after each push. Repositories are created and deleted through the API.
 */
export async function startKilnWeb() {
  const { execFileSync } = await import("node:child_process");
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const bin = fileURLToPath(new URL("../../apps/server/bin/kiln.js", import.meta.url));
  const work = mkdtempSync(join(tmpdir(), "kiln-bench-web-"));
  execFileSync(process.execPath, [
    bin,
    "admin",
    "user",
    "create",
    "-w",
    work,
    "--username",
    "bench",
    "--password",
    "password1",
    "--email",
    "bench@example.com",
    "--admin",
  ]);
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(process.execPath, [bin, "web", "-w", work, "--port", String(port)], {
    stdio: "ignore",
    env: { ...process.env, KILN_LOG_LEVEL: "warn" },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (
      await fetch(`${base}/api/v1/version`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const basic = `Basic ${Buffer.from("bench:password1").toString("base64")}`;
  const call = (method, path, body) =>
    fetch(`${base}/api/v1${path}`, {
      method,
      headers: { Authorization: basic, "Content-Type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const token = (await (await call("POST", "/users/bench/tokens", { name: "bench", scopes: ["all"] })).json())
    .sha1;
  return {
    url: `http://bench:${token}@127.0.0.1:${port}`,
    create: async (name) => {
      const res = await call("POST", "/user/repos", { name });
      if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
    },
    remove: async (name) => {
      await call("DELETE", `/repos/bench/${name}`);
    },
    close: () =>
      new Promise((done) => {
        child.once("close", () => done());
        child.kill("SIGTERM");
      }),
  };
}
