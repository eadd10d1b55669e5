import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the proxy does with a request for a pack: forward it, cut the answer half-way, or never
 * answer; `dumb` answers every request like a dumb HTTP server of an empty repository (no refs).
 */
export type ProxyMode = "pass" | "break" | "hang" | "dumb";

/**
 * A loopback proxy in front of a git server, to interrupt a fetch where it hurts: ref
 * advertisements always pass, while a pack request (`command=fetch`, or `want` lines) is forwarded,
 * cut off half-way through the answer, or left hanging, as `mode` says (or nothing is smart). `packRequested` resolves
 * when a pack request arrives.
 */
export async function gitProxy(upstream: string) {
  let mode: ProxyMode = "pass";
  const hanging: ServerResponse[] = [];
  let notify: (() => void) | undefined;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (mode === "dumb") {
      res.writeHead(200, { "content-type": "text/plain" }).end("");
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const text = body.toString("latin1");
    const isPack = req.method === "POST" && (text.includes("command=fetch") || text.includes("want "));
    if (isPack) notify?.();
    if (isPack && mode === "hang") {
      hanging.push(res);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "authorization", "git-protocol", "accept"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method ?? "GET",
      headers,
      ...(req.method === "POST" ? { body } : {}),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
    if (isPack && mode === "break") {
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      res.socket?.destroy();
      return;
    }
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setMode(next: ProxyMode) {
      mode = next;
    },
    /** Resolves at the next pack request. */
    packRequested(): Promise<void> {
      return new Promise((resolve) => {
        notify = resolve;
      });
    },
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
