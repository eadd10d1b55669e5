import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { HookTaskRow, WebhookRow } from "@kiln/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliver } from "./deliver.js";
import { HostMatcher } from "./host-matcher.js";

/** A matcher that allows a target only in the exact spelling given (so the connect-time check, which sees the kernel's spelling, differs). */
class SpellingMatcher extends HostMatcher {
  constructor(private readonly spelling: string) {
    super("");
  }
  override allows(_host: string, address: string): boolean {
    return address === this.spelling;
  }
}

describe("deliver: the address actually connected to", () => {
  let port: number;
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end("internal");
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (url: string, allowed: HostMatcher) =>
    deliver(
      { uuid: "u-1", eventType: "push", payload: "{}" } as HookTaskRow,
      { url, type: "forgejo", httpMethod: "POST", contentType: "json" } as WebhookRow,
      { allowed, timeoutMs: 5000, skipTlsVerify: false, secret: "", authorization: "", userAgent: "t" },
    );

  it("refuses a peer the list refuses even when the URL's spelling passed, sending nothing", async () => {
    // The URL's host passes as written; the socket's peer reads `::ffff:127.0.0.1`, which does not.
    const before = hits;
    const outcome = await send(`http://[::ffff:7f00:1]:${port}/`, new SpellingMatcher("::ffff:7f00:1"));
    expect(outcome).toMatchObject({ succeeded: false, refused: true });
    expect(outcome.response.body).toBe(
      "webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '::ffff:7f00:1(::ffff:127.0.0.1)'",
    );
    expect(hits).toBe(before);
  });

  it("delivers when the peer is allowed", async () => {
    const before = hits;
    const outcome = await send(`http://127.0.0.1:${port}/`, new HostMatcher("loopback"));
    expect(outcome).toMatchObject({
      succeeded: true,
      refused: false,
      response: { status: 200, body: "internal" },
    });
    expect(hits).toBe(before + 1);
  });

  it("refuses IPv4-mapped loopback under the default list before connecting", async () => {
    const before = hits;
    const outcome = await send(`http://[::ffff:127.0.0.1]:${port}/`, new HostMatcher("external"));
    expect(outcome).toMatchObject({ succeeded: false, refused: true });
    expect(hits).toBe(before);
  });
});
