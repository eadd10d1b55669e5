import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { BadRequestError, InvalidArgumentError, PayloadTooLargeError } from "@kiln/domain";
import busboy from "busboy";
import type { AppContext } from "./env.js";
import { refusedType, SNIFF_LENGTH } from "./upload-type.js";

/**
 * The one streaming upload helper of the API (attachments, release assets, packages, Actions
 * artifacts). A route that takes bytes declares no `body` (the pipeline then reads nothing) and
 * calls {@link readUpload} in its handler, after access and quota were checked; the file is never
 * held whole in memory:
 *
 * ```ts
 * const upload = await readUpload(c, { field: "attachment", raw: true, maxBytes });
 * if (!upload.file) throw new BadRequestError("…");
 * checkFileType(upload.file, name, allowedTypes, "invalid_argument"); // [attachment] ALLOWED_TYPES
 * await store.put(upload.file.body, { maxBytes, signal: upload.signal });
 * ```
 *
 * A `multipart/form-data` body is parsed by busboy as it arrives: text fields before the file are
 * collected, the first part named `field` is the file, other file parts are skipped. Any other
 * body is the file itself when `raw` is set (Forgejo's release assets take both). Past
 * `maxBytes` the file's iteration throws 413; a form that ends early or is malformed throws 400;
 * a client that goes away ends the iteration with an error, so whatever stored the bytes keeps
 * nothing.
 */
export interface UploadOptions {
  /** The form field of the file (Forgejo's `attachment`). */
  readonly field: string;
  /** Whether a body that is not multipart/form-data is the file itself. */
  readonly raw: boolean;
  /** The most bytes the file may have; one more is 413. */
  readonly maxBytes: number;
  /** What the 413 names as the limit, e.g. `[attachment] MAX_SIZE (2048 MiB)`. */
  readonly limitName?: string;
}

/** An uploaded file, read on demand. */
export interface UploadedFile {
  /** The part's file name (empty for a raw body or a part without one). */
  readonly filename: string;
  /** The type the client declared for the part or body (not trusted; see {@link checkFileType}). */
  readonly contentType: string;
  /** The first bytes (at least 512 unless the file is shorter), already read: for type sniffing. */
  readonly head: Uint8Array;
  /** Every byte of the file, `head` first; iterate once. */
  readonly body: AsyncIterable<Uint8Array>;
}

/** What a request uploaded: the file (absent when the form had none) and the text fields before it. */
export interface Upload {
  readonly file: UploadedFile | undefined;
  readonly fields: ReadonlyMap<string, string>;
  /** Aborts when the client goes away; hand it to the blob store. */
  readonly signal: AbortSignal;
}

/** Room for a form's boundaries, part headers and text fields on top of the file's own bytes. */
const FORM_OVERHEAD = 1024 * 1024;
const FORM_LIMITS = {
  fields: 32,
  fieldSize: 64 * 1024,
  fieldNameSize: 200,
  files: 8,
  parts: 48,
  headerPairs: 100,
};

/** Whether the request's body is a multipart form. */
export function isMultipart(c: AppContext): boolean {
  return (c.req.header("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/** Reads the request's upload as a stream (see {@link UploadOptions}). */
export async function readUpload(c: AppContext, options: UploadOptions): Promise<Upload> {
  const request = c.req.raw;
  const signal = request.signal;
  const multipart = isMultipart(c);
  const declared = request.headers.get("content-length");
  const length = declared !== null && /^\d+$/.test(declared.trim()) ? Number(declared) : undefined;
  const tooLarge = () =>
    new PayloadTooLargeError(
      `the file is larger than ${options.limitName ?? "the limit"}: at most ${options.maxBytes} bytes may be uploaded`,
    );
  if (length !== undefined && length > options.maxBytes + (multipart ? FORM_OVERHEAD : 0)) throw tooLarge();
  if (!multipart) {
    if (!options.raw)
      throw new BadRequestError(`the upload must be multipart/form-data with a "${options.field}" file`);
    const incoming = nodeRequest(c);
    const source = incoming
      ? nodeChunks(incoming, signal)
      : request.body
        ? webChunks(request.body, signal)
        : empty();
    return {
      file: await fileOf("", request.headers.get("content-type") ?? "", source, options, tooLarge),
      fields: new Map(),
      signal,
    };
  }
  return readForm(c, options, tooLarge, signal);
}

/**
 * Refuses a file whose sniffed type or extension `[attachment] ALLOWED_TYPES` (or a release's
 * list) does not allow, with Forgejo's message: 400 for release assets, 422 for issue attachments.
 */
export function checkFileType(
  file: UploadedFile,
  name: string,
  allowedTypes: string,
  kind: "bad_request" | "invalid_argument",
): void {
  const refused = refusedType(file.head, name, allowedTypes);
  if (refused === undefined) return;
  throw kind === "bad_request" ? new BadRequestError(TYPE_REFUSED) : new InvalidArgumentError(TYPE_REFUSED);
}

/** Forgejo's message for a file type `ALLOWED_TYPES` does not allow. */
const TYPE_REFUSED = "This file extension or type is not allowed to be uploaded.";

/**
 * Refuses a new name for a stored attachment that `allowedTypes` does not allow, with 422, as
 * Forgejo's attachment_service.UpdateAttachment (upload.Verify with no bytes: the name's extension
 * decides, or the type of an empty file, text/plain), so that a rename cannot turn an allowed
 * `.txt` into a refused `.html`.
 */
export function checkNewName(name: string, allowedTypes: string): void {
  if (refusedType(new Uint8Array(0), name, allowedTypes) !== undefined)
    throw new InvalidArgumentError(TYPE_REFUSED);
}

/** The request's body ended early: its client went away or broke the connection (400, not a 500). */
export function interrupted(): BadRequestError {
  return new BadRequestError("the upload was interrupted: the request body ended before it was complete");
}

/** Whether a stream error is the client's connection closing under the request (Node's `aborted`). */
export function isAbort(error: unknown, signal?: AbortSignal): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    signal?.aborted === true ||
    code === "ECONNRESET" ||
    code === "ERR_STREAM_PREMATURE_CLOSE" ||
    (error instanceof Error && (error.message === "aborted" || error.name === "AbortError"))
  );
}

async function readForm(
  c: AppContext,
  options: UploadOptions,
  tooLarge: () => Error,
  signal: AbortSignal,
): Promise<Upload> {
  const request = c.req.raw;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": c.req.header("Content-Type") ?? "" }, limits: FORM_LIMITS });
  } catch (error) {
    throw new BadRequestError(`the multipart form cannot be read: ${(error as Error).message}`);
  }
  const fields = new Map<string, string>();
  const incoming = nodeRequest(c);
  const source: Readable =
    incoming ??
    (request.body
      ? Readable.fromWeb(request.body as import("node:stream/web").ReadableStream)
      : Readable.from([]));
  let done!: () => void;
  let failed!: (error: Error) => void;
  // Settles when the whole form has been read (or could not be): the file's iteration ends on it.
  const finished = new Promise<void>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  finished.catch(() => {});
  const fail = (error: Error) => {
    const refusal =
      error.message.includes("Unexpected end of form") || error.message.includes("Malformed")
        ? new BadRequestError(`the multipart form is incomplete or malformed: ${error.message}`)
        : error;
    failed(refusal);
    stop();
  };
  // Reads no more of the body. The socket's own request is left to the server, which answers
  // (413, 400) and drains or closes it; destroying it would lose the answer.
  const stop = () => {
    source.unpipe(parser);
    if (source !== incoming) source.destroy();
  };
  parser.on("error", (error: Error) => fail(error));
  parser.on("close", () => done());
  source.on("error", (error) => {
    const cause = isAbort(error, signal) ? interrupted() : error;
    parser.destroy(cause);
    fail(cause);
  });
  let received = 0;
  source.on("data", (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received > options.maxBytes + FORM_OVERHEAD) {
      const error = tooLarge();
      parser.destroy(error);
      fail(error);
    }
  });
  source.pipe(parser);

  const part = await new Promise<{ stream: Readable; filename: string; mimeType: string } | undefined>(
    (resolve, reject) => {
      let taken = false;
      parser.on("field", (name: string, value: string, info: busboy.FieldInfo) => {
        if (info.valueTruncated || info.nameTruncated)
          return fail(new BadRequestError(`form field "${name.slice(0, 100)}" is too long`));
        if (!fields.has(name)) fields.set(name, value);
      });
      parser.on("file", (name: string, stream: Readable, info: busboy.FileInfo) => {
        if (taken || name !== options.field) {
          stream.resume();
          return;
        }
        taken = true;
        resolve({ stream, filename: info.filename ?? "", mimeType: info.mimeType ?? "" });
      });
      parser.on("filesLimit", () => fail(new BadRequestError("the form has too many files")));
      parser.on("partsLimit", () => fail(new BadRequestError("the form has too many parts")));
      parser.on("fieldsLimit", () => fail(new BadRequestError("the form has too many fields")));
      finished.then(() => resolve(undefined), reject);
    },
  );
  if (!part) return { file: undefined, fields, signal };
  async function* chunks(): AsyncIterable<Uint8Array> {
    const stream = part?.stream as Readable;
    let complete = false;
    try {
      // busboy ends the part's stream at its boundary, or destroys it when the form breaks off.
      for await (const chunk of stream) yield chunk as Uint8Array;
      // The rest of the form (closing boundary, later fields) must arrive whole too.
      await finished;
      complete = true;
    } catch (error) {
      await finished; // the form's own error says more than the part's
      throw error;
    } finally {
      // Stopped early (too large, the consumer failed): read no more of the request.
      if (!complete) {
        stop();
        parser.destroy();
      }
    }
  }
  return {
    file: await fileOf(part.filename, part.mimeType, chunks(), options, tooLarge),
    fields,
    signal,
  };
}

/** The file over a stream of chunks: its head read now, the rest counted against the limit. */
async function fileOf(
  filename: string,
  contentType: string,
  source: AsyncIterable<Uint8Array>,
  options: UploadOptions,
  tooLarge: () => Error,
): Promise<UploadedFile> {
  const iterator = source[Symbol.asyncIterator]();
  const headChunks: Uint8Array[] = [];
  let headSize = 0;
  let ended = false;
  while (headSize < SNIFF_LENGTH) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    headChunks.push(next.value);
    headSize += next.value.byteLength;
    if (headSize > options.maxBytes) {
      await iterator.return?.();
      throw tooLarge();
    }
  }
  const head = Buffer.concat(headChunks);
  async function* body(): AsyncIterable<Uint8Array> {
    let size = 0;
    for (const chunk of headChunks) {
      size += chunk.byteLength;
      yield chunk;
    }
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      size += next.value.byteLength;
      if (size > options.maxBytes) {
        await iterator.return?.();
        throw tooLarge();
      }
      yield next.value;
    }
  }
  return { filename, contentType, head, body: body() };
}

/**
 * The Node request under @hono/node-server, when its body has not been touched: read straight
 * from the socket with Node's backpressure. (Its web stream goes through Node 20's
 * Readable.toWeb, which counts chunks, not bytes, against 16,384: a slow disk lets it buffer
 * megabytes of a large upload.)
 */
function nodeRequest(c: AppContext): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming && typeof incoming.pipe === "function" && !incoming.readableDidRead ? incoming : undefined;
}

async function* nodeChunks(incoming: IncomingMessage, signal: AbortSignal): AsyncIterable<Uint8Array> {
  try {
    // Stopping early (413) leaves the request to the server rather than destroying its socket.
    for await (const chunk of incoming.iterator({ destroyOnReturn: false })) yield chunk as Uint8Array;
  } catch (error) {
    throw isAbort(error, signal) ? interrupted() : error;
  }
}

async function* webChunks(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } catch (error) {
    throw isAbort(error, signal) ? interrupted() : error;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function* empty(): AsyncIterable<Uint8Array> {}
