import { Channel, Command, fetchReq, type Msg } from "@kiln/protocol/wire";
import { errorFromText } from "../errors/from-text.js";
import { onChannel, send } from "../transport.js";
import { KilnHeaders } from "./headers.js";
import { KilnResponse } from "./response.js";

interface Pending {
  readonly url: string;
  readonly resolve: (response: KilnResponse) => void;
  readonly reject: (error: Error) => void;
}

const pending = new Map<number, Pending>();
let nextId = 1;

/**
 * `fetch(url)`: a GET through FETCH_REQ, settled by FETCH_RES or by an ERROR carrying the same
 * id (for example a permission error without --allow-net), or by the host refusing the request's
 * message (a ProtocolError). The protocol carries no method,
 * request headers or body, so only plain GETs are possible.
 */
export function fetch(input: unknown, init: { method?: string; body?: unknown } = {}): Promise<KilnResponse> {
  const url =
    typeof input === "object" && input !== null && "href" in input
      ? String((input as { href: unknown }).href)
      : typeof input === "object" && input !== null && "url" in input
        ? String((input as { url: unknown }).url)
        : String(input);
  const method = (init.method ?? "GET").toUpperCase();
  if (method !== "GET" || init.body !== undefined) {
    return Promise.reject(new TypeError(`fetch: only GET without a body is supported, not ${method}`));
  }
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { url, resolve, reject });
    send(Channel.fetch, fetchReq({ id, url }), (reason) => {
      if (pending.delete(id)) reject(errorFromText(reason));
    });
  });
}

function onFetchMessage(msg: Msg): void {
  const request = pending.get(msg.fetchResId);
  if (!request) return;
  pending.delete(msg.fetchResId);
  if (msg.command === Command.FETCH_RES) {
    const headers = KilnHeaders.fromLines(msg.fetchResHeaderLine);
    request.resolve(
      new KilnResponse(msg.fetchResBody, { status: msg.fetchResStatus, headers, url: request.url }),
    );
  } else if (msg.command === Command.ERROR) {
    request.reject(errorFromText(msg.error));
  }
}

onChannel(Channel.fetch, onFetchMessage);
