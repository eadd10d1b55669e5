import { createHash, timingSafeEqual } from "node:crypto";
import { existsSync, unlinkSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandContext } from "../commands/command-context.js";
import type { ProgressUpdate } from "../commands/progress.js";

/**
 * The running server's internal API: how `kiln admin …` and friends act on a work path whose
 * PGlite the server holds. It listens on a Unix socket in the data directory (only the owner
 * can reach it) and also requires the random token published in the lock file. One operation:
 * `POST /cli` with `{command, args}`, answered as a stream of JSON lines `{"out"|"err": text}`,
 * `{"progress": {label, done, total}}`, and a final `{"exit": code}`.
 */
export function socketPathFor(appDataPath: string): string {
  const preferred = join(appDataPath, "kiln.sock");
  // Unix socket paths are limited to ~107 bytes; deep work paths fall back to the temp dir.
  if (Buffer.byteLength(preferred) < 100) return preferred;
  const hash = createHash("sha256").update(appDataPath).digest("hex").slice(0, 16);
  return join(tmpdir(), `kiln-${hash}.sock`);
}

/** Starts the internal API; `context` builds a command context writing to a given IO. */
export async function startInternalApi(
  socket: string,
  token: string,
  context: (io: CommandContext["io"]) => CommandContext,
): Promise<Server> {
  if (existsSync(socket)) unlinkSync(socket);
  const expected = Buffer.from(token);
  const server = createServer(async (req, res) => {
    const given = Buffer.from(String(req.headers["x-kiln-token"] ?? ""));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end();
      return;
    }
    if (req.method !== "POST" || req.url !== "/cli") {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    const send = (obj: object) => res.write(`${JSON.stringify(obj)}\n`);
    let code: number;
    try {
      const { command, args } = JSON.parse(body) as { command: string; args: unknown };
      // Loaded here, not at the top: the CLI imports this module for callInternalApi alone.
      const { runInstanceCommand } = await import("../commands/instance-commands.js");
      code = await runInstanceCommand(
        context({
          out: (t) => send({ out: t }),
          err: (t) => send({ err: t }),
          progress: (p) => send({ progress: p }),
        }),
        command,
        args,
      );
    } catch (err) {
      send({ err: `internal error: ${(err as Error).message}` });
      code = 1;
    }
    send({ exit: code });
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve());
  });
  return server;
}

/** Sends a command to a running server and relays its output; resolves to the exit code. */
export function callInternalApi(
  socket: string,
  token: string,
  command: string,
  args: unknown,
  io: CommandContext["io"],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: socket, path: "/cli", method: "POST", headers: { "x-kiln-token": token } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`the running server refused the command (HTTP ${res.statusCode})`));
          res.resume();
          return;
        }
        let buffer = "";
        let exit = 1;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let nl = buffer.indexOf("\n");
          while (nl >= 0) {
            const msg = JSON.parse(buffer.slice(0, nl)) as {
              out?: string;
              err?: string;
              progress?: ProgressUpdate;
              exit?: number;
            };
            buffer = buffer.slice(nl + 1);
            if (msg.out !== undefined) io.out(msg.out);
            if (msg.err !== undefined) io.err(msg.err);
            if (msg.progress !== undefined) io.progress(msg.progress);
            if (msg.exit !== undefined) exit = msg.exit;
            nl = buffer.indexOf("\n");
          }
        });
        res.on("end", () => resolve(exit));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ command, args }));
  });
}
