import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

/** A loopback HTTP server started by a test, with the requests it has seen. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** Starts an HTTP server on 127.0.0.1 on a free port. */
export async function startServer(handler: Handler): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    Promise.resolve(handler(request, response)).catch((error: Error) => {
      response.statusCode = 500;
      response.end(error.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const types: Record<string, string> = {
  ".ts": "application/typescript",
  ".js": "text/javascript",
  ".json": "application/json",
  ".txt": "text/plain",
};

/** A handler serving the files of a directory (404 for anything else), with a content type by extension. */
export function serveDirectory(root: string): Handler {
  return async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    try {
      const body = await readFile(join(root, path));
      response.setHeader("content-type", types[extname(path)] ?? "application/octet-stream");
      response.setHeader("x-kiln-test", "yes");
      response.end(body);
    } catch {
      response.statusCode = 404;
      response.end("not found");
    }
  };
}
