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

function bounded(value: string | undefined): string {
  return value !== undefined && value.length <= FIELD_LIMIT ? value : "";
}
