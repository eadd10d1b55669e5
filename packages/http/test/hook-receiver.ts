import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A loopback webhook receiver: records every request, answers with `status(n)` (default 200). */
export interface HookReceiver {
  readonly url: string;
  readonly received: Received[];
  /** Resolves once at least `n` requests arrived (matching `filter` when given). */
  waitFor(n: number, filter?: (r: Received) => boolean): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(status: (n: number) => number = () => 200): Promise<HookReceiver> {
  const received: Received[] = [];
  let waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.statusCode = status(received.length);
      res.setHeader("X-Receiver", "yes");
      res.end("thanks");
      const now = waiters;
      waiters = [];
      for (const wake of now) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async waitFor(n, filter = () => true) {
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= n) return matching;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
