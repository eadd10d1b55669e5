import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import type { RepoStore } from "../src/disk/repo-store.js";
import type { PushPolicy, RefUpdate } from "../src/hooks/push-policy.js";
import { type LfsBatchRequest, parseLfsBatchRequest } from "../src/lfs/lfs-batch.js";
import {
  handleLfsBatch,
  handleLfsDownload,
  handleLfsUpload,
  handleLfsVerify,
  lfsError,
} from "../src/lfs/lfs-http.js";
import type { LfsStore } from "../src/lfs/lfs-store.js";
import { handleGitHttp } from "../src/transport/smart-http.js";

/** What a test can steer and observe on the server. */
export interface TestServerHooks {
  pushPolicy?: PushPolicy;
  pushes: RefUpdate[][];
  lfsRecorded: { oid: string; size: number }[];
  errors: unknown[];
}

function toRequest(req: IncomingMessage, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", base), {
    method: req.method ?? "GET",
    headers,
    ...(hasBody
      ? { body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>, duplex: "half" }
      : {}),
  } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as unknown as NodeWebReadableStream<Uint8Array>), res);
}

/**
 * A minimal node:http server mounting the transport and LFS handlers at `/<owner>/<repo>.git/…`
 * with no authentication, the way the HTTP layer will mount them behind its checks.
 */
export async function startTestServer(
  store: RepoStore,
  lfs: LfsStore,
): Promise<{ url: string; hooks: TestServerHooks; close: () => Promise<void> }> {
  const hooks: TestServerHooks = { pushes: [], lfsRecorded: [], errors: [] };
  let base = "";
  const server: Server = createServer(async (req, res) => {
    try {
      const request = toRequest(req, base);
      const match = /^\/([^/]+)\/([^/]+)\.git\/(.*)$/.exec(new URL(request.url).pathname);
      if (!match) return send(res, new Response("not found", { status: 404 }));
      const [, owner = "", name = "", subpath = ""] = match;
      const repo = await store.open(owner, name);
      const lfsBase = `${base}/${owner}/${name}.git/info/lfs`;
      if (subpath === "info/lfs/objects/batch" && request.method === "POST") {
        let parsed: LfsBatchRequest;
        try {
          parsed = parseLfsBatchRequest(await request.json());
        } catch (error) {
          return send(res, lfsError(422, (error as Error).message));
        }
        const { response, result } = await handleLfsBatch(
          parsed,
          { hrefBase: lfsBase, visible: () => true },
          lfs,
        );
        hooks.lfsRecorded.push(...result.alreadyStored);
        return send(res, response);
      }
      const upload = /^info\/lfs\/objects\/([0-9a-f]{64})\/(\d+)$/.exec(subpath);
      if (upload && request.method === "PUT") {
        const { response, stored } = await handleLfsUpload(request, upload[1]!, Number(upload[2]), lfs);
        if (stored) hooks.lfsRecorded.push({ oid: stored.oid, size: stored.size });
        return send(res, response);
      }
      const download = /^info\/lfs\/objects\/([0-9a-f]{64})$/.exec(subpath);
      if (download && request.method === "GET") return send(res, await handleLfsDownload(download[1]!, lfs));
      if (subpath === "info/lfs/verify" && request.method === "POST") {
        return send(res, await handleLfsVerify(await request.json().catch(() => undefined), lfs));
      }
      const response = await handleGitHttp(repo, subpath, request, {
        ...(hooks.pushPolicy ? { pushPolicy: hooks.pushPolicy } : {}),
        onPushed: (updates) => {
          hooks.pushes.push([...updates]);
        },
        onError: (error) => hooks.errors.push(error),
      });
      return send(res, response);
    } catch (error) {
      hooks.errors.push(error);
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    hooks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
