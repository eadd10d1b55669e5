import { createHash } from "node:crypto";
import type { TestUser } from "./support.js";

/** Helpers for upload tests: multipart bodies and raw requests over a real socket. */

export const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Bytes that are not text (so no sniffing mistakes them for it), `n` long, varying with `seed`. */
export function bytesOf(n: number, seed = 1): Buffer {
  const out = Buffer.alloc(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A multipart/form-data body with the given file and text fields. */
export function multipart(
  parts: readonly ({ name: string; value: string } | { name: string; filename: string; data: Uint8Array })[],
): { body: Buffer; contentType: string } {
  const boundary = `----kiln${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ("value" in part)
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    else
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(part.data),
        Buffer.from("\r\n"),
      );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface Sent {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  readonly json: any;
  readonly body: Buffer;
  readonly headers: Headers;
}

/** A request with a binary body to `${base}${path}` (path from the server's root). */
export async function send(
  base: string,
  method: string,
  path: string,
  opts: {
    user?: TestUser | undefined;
    body?: Uint8Array;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.user) headers.Authorization = `token ${opts.user.token}`;
  if (opts.contentType) headers["Content-Type"] = opts.contentType;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    redirect: "manual",
    ...(opts.body ? { body: opts.body } : {}),
  });
  const body = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(body.toString());
  } catch {
    json = undefined;
  }
  return { status: res.status, json, body, headers: res.headers };
}

/** Uploads `data` as the multipart `attachment` of `path` (under /api/v1). */
export function uploadForm(base: string, path: string, user: TestUser, filename: string, data: Uint8Array) {
  const form = multipart([{ name: "attachment", filename, data }]);
  return send(base, "POST", `/api/v1${path}`, { user, body: form.body, contentType: form.contentType });
}
