import { PayloadTooLargeError } from "@kiln/domain";
import type { WebContext } from "./env.js";

/** The largest form a page reads (a sign-in, a consent); larger bodies are 413 before they are read whole. */
export const FORM_LIMIT = 64 * 1024;
/** The longest value one field may have; longer values read as empty. */
const FIELD_LIMIT = 4096;

/** A request's fields by name: a form body's, or the query string's. */
export type Fields = (name: string) => string;

/** The query string's fields (each bounded like a form's). */
export function queryFields(c: WebContext): Fields {
  const params = new URL(c.req.url).searchParams;
  return (name) => bounded(params.get(name) ?? undefined);
}

/**
 * Reads an url-encoded form body (what a page's `<form method="post">` sends), at most
 * {@link FORM_LIMIT} bytes: a declared or streamed body beyond it is refused with 413 as soon as
 * it is seen. The first value of a repeated field counts.
 */
export async function readForm(c: WebContext): Promise<Fields> {
  const text = await readBounded(c.req.raw, FORM_LIMIT);
  const values = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(text)) if (!values.has(key)) values.set(key, value);
  return (name) => bounded(values.get(name));
}

async function readBounded(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder("utf-8");
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`the form is too large: the limit is ${limit} bytes`);
}

function bounded(value: string | undefined): string {
  return value !== undefined && value.length <= FIELD_LIMIT ? value : "";
}

/**
 * A same-site path to return to after sign-in, or undefined: a path on this site (`/…`), never
 * `//host` or `/\host` (which browsers read as another host), without control characters, and
 * short enough for a form field (so a long authorize URL still comes back).
 */
export function safeRedirect(target: string): string | undefined {
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return undefined;
  if (
    target.length > FIELD_LIMIT ||
    target.includes("\\") ||
    [...target].some((ch) => ch < " " || ch === "\u007f")
  ) {
    return undefined;
  }
  return target;
}

/** The path and query the browser asked for, to come back to after signing in. */
export function here(c: WebContext): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}
