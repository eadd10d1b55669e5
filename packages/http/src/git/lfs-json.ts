import { isKilnError } from "@kiln/domain";
import { lfsError } from "@kiln/git";
import { readBoundedText } from "../bounded-body.js";
import type { AppContext } from "../env.js";

/** An LFS request's JSON body read within `[api] MAX_BODY_SIZE`, or the LFS error to answer (413, 400). */
export async function readLfsJson(
  c: AppContext,
): Promise<
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly response: Response }
> {
  let text: string;
  try {
    text = await readBoundedText(c.req.raw, c.get("settings").api.maxBodySize);
  } catch (error) {
    if (isKilnError(error) && error.kind === "payload_too_large")
      return { ok: false, response: lfsError(413, error.message) };
    throw error;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: lfsError(400, "request body is not JSON") };
  }
}
