import { BadRequestError, PayloadTooLargeError } from "@kiln/domain";

/** Forgejo's message for a missing or undecodable tarball. */
export const INVALID_ATTACHMENT = "package attachment is invalid";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Base64 characters decoded at once (a multiple of 4). */
const DECODE_BLOCK = 64 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*$/;

interface Frame {
  readonly object: boolean;
  /** The last key read in an object (the key of the value being read). */
  key: string;
  expectKey: boolean;
}

/** What {@link splitPublishBody} gives: the tarball's bytes as they arrive, then the document. */
export interface PublishBody {
  /** The decoded bytes of the first `_attachments.*.data`; the rest of the body is read with them. */
  readonly tarball: AsyncIterable<Uint8Array>;
  /** The document without any attachment data (each `data` reads `""`), once `tarball` ended. */
  document(): unknown;
}

/**
 * Reads an `npm publish` body — a JSON document whose `_attachments.<file>.data` holds the tarball
 * in base64 — in one pass without holding the tarball: the first attachment's data is decoded as
 * it streams by (for the blob store), every other byte is kept for the document, which may hold at
 * most `metadataLimit` bytes (413 beyond). Other attachments' data is dropped. The tarball must be
 * standard padded base64 (Forgejo's StdEncoding), else 400 `package attachment is invalid`; a
 * document that is not JSON is 400 too.
 */
export function splitPublishBody(body: AsyncIterable<Uint8Array>, metadataLimit: number): PublishBody {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let document: unknown;
  let finished = false;

  const keep = (bytes: Uint8Array) => {
    if (bytes.byteLength === 0) return;
    keptBytes += bytes.byteLength;
    if (keptBytes > metadataLimit)
      throw new PayloadTooLargeError(
        `the package document is larger than the limit of ${metadataLimit} bytes`,
      );
    kept.push(bytes);
  };

  async function* run(): AsyncIterable<Uint8Array> {
    const stack: Frame[] = [];
    let inString = false;
    let escaped = false;
    let isKey = false;
    let key: number[] = [];
    /** What the current string's content is for: the document, the tarball, or nothing. */
    let target: "document" | "tarball" | "drop" = "document";
    let tookTarball = false;
    let pending = "";
    const decoder = new TextDecoder();

    const decode = (final: boolean): Uint8Array | undefined => {
      // Before the end, the last quad stays behind: only it may hold padding.
      const usable = final ? pending.length : Math.max(0, pending.length - 4 - (pending.length % 4));
      if (usable === 0) return undefined;
      const text = pending.slice(0, usable);
      pending = pending.slice(usable);
      if (final && text.length % 4 !== 0) throw new BadRequestError(INVALID_ATTACHMENT);
      const pad = text.indexOf("=");
      if (pad >= 0 && (!final || !/^={1,2}$/.test(text.slice(pad))))
        throw new BadRequestError(INVALID_ATTACHMENT);
      if (!BASE64.test(pad >= 0 ? text.slice(0, pad) : text)) throw new BadRequestError(INVALID_ATTACHMENT);
      return Buffer.from(text, "base64");
    };

    for await (const chunk of body) {
      const out: Uint8Array[] = [];
      let i = 0;
      let from = 0;
      while (i < chunk.length) {
        if (inString) {
          if (target === "tarball") {
            // Fast path: the run of base64 up to the closing quote or an escape.
            let end = i;
            while (end < chunk.length && chunk[end] !== QUOTE && chunk[end] !== BACKSLASH) end++;
            if (escaped) {
              if (chunk[i] !== 0x2f) throw new BadRequestError(INVALID_ATTACHMENT);
              pending += "/";
              escaped = false;
              i++;
              from = i;
              continue;
            }
            pending += decoder.decode(chunk.subarray(i, end));
            if (pending.length >= DECODE_BLOCK) {
              const bytes = decode(false);
              if (bytes) out.push(bytes);
            }
            i = end;
            from = i;
            if (i >= chunk.length) break;
            if (chunk[i] === BACKSLASH) {
              escaped = true;
              i++;
              from = i;
              continue;
            }
            // The closing quote: the document gets an empty string in place of the data.
            const last = decode(true);
            if (last) out.push(last);
            inString = false;
            target = "document";
            from = i;
            i++;
            continue;
          }
          const byte = chunk[i] as number;
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) {
            inString = false;
            if (target === "drop") {
              target = "document";
              from = i;
            }
            if (isKey) {
              const top = stack[stack.length - 1];
              if (top) top.key = JSON.parse(Buffer.from([QUOTE, ...key, QUOTE]).toString("utf8")) as string;
              key = [];
            }
            i++;
            continue;
          }
          if (isKey) {
            key.push(byte);
            if (key.length > 4096) throw new BadRequestError("package is invalid");
          }
          i++;
          continue;
        }
        const byte = chunk[i] as number;
        const top = stack[stack.length - 1];
        if (byte === 0x7b || byte === 0x5b) {
          stack.push({ object: byte === 0x7b, key: "", expectKey: byte === 0x7b });
          if (stack.length > 64) throw new BadRequestError("package is invalid");
        } else if (byte === 0x7d || byte === 0x5d) {
          stack.pop();
        } else if (byte === 0x3a) {
          if (top) top.expectKey = false;
        } else if (byte === 0x2c) {
          if (top?.object) top.expectKey = true;
        } else if (byte === QUOTE) {
          inString = true;
          isKey = top?.object === true && top.expectKey;
          const isData =
            !isKey &&
            stack.length === 3 &&
            stack.every((f) => f.object) &&
            stack[0]?.key === "_attachments" &&
            stack[2]?.key === "data";
          if (isData) {
            // Keep the opening quote; the data itself goes to the tarball or nowhere.
            keep(chunk.subarray(from, i + 1));
            target = tookTarball ? "drop" : "tarball";
            tookTarball = true;
            i++;
            from = i;
            continue;
          }
        }
        i++;
      }
      if (target !== "tarball" && target !== "drop") keep(chunk.subarray(from, chunk.length));
      // A chunk may end inside dropped data: nothing of it is kept.
      for (const bytes of out) yield bytes;
    }
    if (inString || stack.length > 0) throw new BadRequestError("package is invalid");
    if (!tookTarball) throw new BadRequestError(INVALID_ATTACHMENT);
    try {
      document = JSON.parse(Buffer.concat(kept).toString("utf8"));
    } catch {
      throw new BadRequestError("package is invalid");
    }
    finished = true;
  }

  return {
    tarball: run(),
    document() {
      if (!finished) throw new Error("the publish body was not read to its end");
      return document;
    },
  };
}
