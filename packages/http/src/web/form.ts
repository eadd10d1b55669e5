import { readBoundedText } from "../bounded-body.js";
import type { AppContext } from "../env.js";

/** The largest form a page or the token endpoint reads. */
export const FORM_LIMIT = 64 * 1024;
/** The longest value of one field. */
const FIELD_LIMIT = 4096;

/** A request's fields: its query string, or its body (url-encoded, multipart-free, or JSON). */
export type Fields = (name: string) => string;

/**
 * Reads a form body, url-encoded or JSON (the token endpoint takes both, as Forgejo's binding
 * does), bounded in size. Fields that are not strings or are too long read as empty.
 */
export async function readForm(c: AppContext): Promise<Fields> {
  const text = await readBoundedText(c.req.raw, FORM_LIMIT);
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  const values = new Map<string, string>();
  if (type.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {};
    }
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === "string") values.set(key, value);
        else if (typeof value === "boolean" || typeof value === "number") values.set(key, String(value));
      }
    }
  } else {
    for (const [key, value] of new URLSearchParams(text)) if (!values.has(key)) values.set(key, value);
  }
  return (name) => bounded(values.get(name));
}

/** The query string's fields. */
export function queryFields(c: AppContext): Fields {
  const params = new URL(c.req.url).searchParams;
  return (name) => bounded(params.get(name) ?? undefined);
}

function bounded(value: string | undefined): string {
  return value !== undefined && value.length <= FIELD_LIMIT ? value : "";
}

/**
 * A same-site path to return to after sign-in, or undefined: it must be a path on this site
 * (`/…`), never `//host` or `/\host` (which browsers read as another host), nor hold control
 * characters, and fit in a form field (so a long authorize URL still comes back).
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
