import { PayloadTooLargeError } from "@kiln/domain";

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes. A `Content-Length` above the limit
 * is refused before anything is read; a body that grows past it while streaming is refused as
 * soon as it does, and the stream is cancelled so the rest is never buffered. Either way this
 * throws a payload-too-large error (413).
 */
export async function readBoundedText(request: Request, limit: number): Promise<string> {
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
  return new PayloadTooLargeError(`request body is too large: the limit is ${limit} bytes`);
}
