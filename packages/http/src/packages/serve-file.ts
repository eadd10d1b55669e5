import type { PackageFile } from "@kiln/domain";
import type { AppContext } from "../env.js";
import { requestHeader } from "../request-header.js";
import { interrupted, isAbort } from "../upload.js";

/** A byte range of a file, both ends included (HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The byte range a `Range: bytes=…` header asks of a file of `size` bytes (one range; `a-b`,
 * `a-` or `-n`), undefined for the whole file or a header Kiln does not serve ranges for, and
 * "unsatisfiable" for a range past the end.
 */
export function requestedRange(c: AppContext, size: number): ByteRange | "unsatisfiable" | undefined {
  const header = requestHeader(c, "range");
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (m[1] === "") {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/**
 * A package file's bytes as Forgejo's ServePackageFile sends them: streamed, with its length, a
 * download name and its time; 206 with `Content-Range` for a range.
 */
export function fileResponse(
  file: PackageFile,
  body: ReadableStream<Uint8Array>,
  range?: ByteRange,
): Response {
  const headers = new Headers({
    "Content-Type": "application/octet-stream",
    "X-Content-Type-Options": "nosniff",
    "Content-Disposition": `attachment; filename="${file.name.replace(/["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    "Last-Modified": file.createdAt.toUTCString(),
    "Accept-Ranges": "bytes",
    "Content-Length": String(range ? range.end - range.start + 1 : file.size),
  });
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** 416 for a range past the end of a file. */
export function unsatisfiable(size: number): Response {
  return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
}

/**
 * A request body as the chunks it arrives in (nothing when there is none), for streaming uploads;
 * a client that goes away ends it with 400, not an internal error.
 */
export async function* requestChunks(request: Request): AsyncIterable<Uint8Array> {
  if (!request.body) return;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } catch (error) {
    throw isAbort(error, request.signal) ? interrupted() : error;
  } finally {
    reader.releaseLock();
  }
}
