import { createHmac } from "node:crypto";
import { lookup as dnsLookup } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { HookRequestInfo, HookResponseInfo, HookTaskRow, WebhookRow } from "@kiln/storage";
import type { HookEventType } from "../events/event.js";
import { eventHeader } from "./hook-events.js";
import type { HostMatcher } from "./host-matcher.js";

/** Most bytes of a receiver's answer kept in the delivery history. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

/** How one attempt ended. `refused`: the target is not allowed (no connection was made). */
export interface AttemptOutcome {
  readonly succeeded: boolean;
  readonly refused: boolean;
  readonly request: HookRequestInfo;
  readonly response: HookResponseInfo;
}

/** What sending needs besides the task and its hook. */
export interface DeliverOptions {
  readonly allowed: HostMatcher;
  readonly timeoutMs: number;
  readonly skipTlsVerify: boolean;
  readonly secret: string;
  readonly authorization: string;
  readonly userAgent: string;
}

/**
 * Forgejo's refusal for a target `[webhook] ALLOWED_HOST_LIST` does not allow (its dialer's
 * message), recorded as the delivery's response.
 */
export function refusalMessage(host: string, address: string): string {
  return `webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '${host}(${address})'`;
}

class Refused extends Error {}

/**
 * Sends one delivery as Forgejo's services/webhook/deliver.go: the body (JSON, or `payload=` form
 * encoded, or in the query for GET), the X-Forgejo-/X-Gitea-/X-Gogs- headers with the HMAC-SHA256
 * signature of the payload, X-Hub-Signature(-256), and the hook's Authorization header. The host
 * is resolved once, each address checked against the allow list, and the connection made to the
 * checked address only (a custom `lookup`), so a DNS answer that changes cannot reach a host the
 * list refuses; the peer the socket reached is checked again before anything is sent. The whole
 * attempt is bounded by `timeoutMs`.
 */
export async function deliver(
  task: HookTaskRow,
  hook: WebhookRow,
  options: DeliverOptions,
): Promise<AttemptOutcome> {
  const type = task.eventType as HookEventType;
  const sha256 = options.secret
    ? createHmac("sha256", options.secret).update(task.payload).digest("hex")
    : "";
  const sha1 = options.secret ? createHmac("sha1", options.secret).update(task.payload).digest("hex") : "";
  const event = eventHeader(type);
  const headers: Record<string, string> = {
    "User-Agent": options.userAgent,
    "X-Forgejo-Delivery": task.uuid,
    "X-Forgejo-Event": event,
    "X-Forgejo-Event-Type": type,
    "X-Forgejo-Signature": sha256,
    "X-Gitea-Delivery": task.uuid,
    "X-Gitea-Event": event,
    "X-Gitea-Event-Type": type,
    "X-Gitea-Signature": sha256,
    "X-Gogs-Delivery": task.uuid,
    "X-Gogs-Event": event,
    "X-Gogs-Event-Type": type,
    "X-Gogs-Signature": sha256,
    "X-Hub-Signature": `sha1=${sha1}`,
    "X-Hub-Signature-256": `sha256=${sha256}`,
    "X-GitHub-Delivery": task.uuid,
    "X-GitHub-Event": event,
    "X-GitHub-Event-Type": type,
  };
  if (options.authorization) headers.Authorization = options.authorization;
  let url = hook.url;
  let body: string | undefined;
  const method = hook.httpMethod || "POST";
  if (method === "GET") {
    const u = new URL(url);
    u.searchParams.set("payload", task.payload);
    url = u.toString();
  } else {
    if (hook.type === "matrix") {
      let end = url.length;
      while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
      url = `${url.slice(0, end)}/${txnId(task.uuid)}`;
    }
    if (hook.contentType === "form") {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams({ payload: task.payload }).toString();
    } else {
      headers["Content-Type"] = "application/json";
      body = task.payload;
    }
  }
  const request: HookRequestInfo = { url, http_method: method, headers: redact(headers) };
  const failed = (message: string, refused = false): AttemptOutcome => ({
    succeeded: false,
    refused,
    request,
    response: { status: 0, headers: {}, body: message },
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failed("invalid url");
  }
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && !options.allowed.allows(host, host))
    return failed(refusalMessage(host, host), true);
  const lookup: LookupFunction = (name, lookupOptions, callback) => {
    dnsLookup(name, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, "", 4);
      const ok = addresses.find((a) => options.allowed.allows(name, a.address));
      if (!ok) {
        const first = addresses[0]?.address ?? "";
        return callback(new Refused(refusalMessage(name, first)), "", 4);
      }
      if ((lookupOptions as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [ok]);
      } else callback(null, ok.address, ok.family);
    });
  };
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      target,
      {
        method,
        headers: {
          ...headers,
          ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
        },
        lookup,
        ...(target.protocol === "https:" ? { rejectUnauthorized: !options.skipTlsVerify } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
          size += chunk.length;
        });
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          finish({
            succeeded: status >= 200 && status < 300,
            refused: false,
            request,
            response: { status, headers: flatten(res.headers), body: Buffer.concat(chunks).toString("utf8") },
          });
        });
        res.on("error", (err) => finish(failed(err.message)));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`delivery timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    // The last word is the peer the socket reached: whatever chose it (the literal, the lookup
    // above, the kernel's mapping of IPv4 in IPv6), a peer the list refuses gets no byte.
    req.on("socket", (socket) => {
      if (!socket.connecting) return;
      socket.prependOnceListener("connect", () => {
        const peer = socket.remoteAddress ?? "";
        if (!options.allowed.allows(host, peer)) socket.destroy(new Refused(refusalMessage(host, peer)));
      });
    });
    req.on("error", (err) => finish(failed(err.message, err instanceof Refused)));
    req.end(body);
  });
}

/** Matrix wants a transaction id per message: the delivery's, so a retry is the same message. */
function txnId(uuid: string): string {
  return uuid.replace(/-/g, "");
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = (Array.isArray(value) ? value.join(", ") : value).slice(0, 4096);
  }
  return out;
}

/** The history never keeps the Authorization header in clear. */
function redact(headers: Record<string, string>): Record<string, string> {
  return headers.Authorization ? { ...headers, Authorization: "******" } : headers;
}
