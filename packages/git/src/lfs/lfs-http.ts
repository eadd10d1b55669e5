import { GitError } from "../errors/git-error.js";
import { type LfsBatchContext, type LfsBatchRequest, type LfsBatchResult, lfsBatch } from "./lfs-batch.js";
import { isValidLfsOid, isValidLfsSize } from "./lfs-oid.js";
import type { LfsPutResult, LfsStore } from "./lfs-store.js";

/** The media type of LFS API bodies. */
export const LFS_MEDIA_TYPE = "application/vnd.git-lfs+json";

/** An LFS error response (`{"message": …}` with the LFS media type). */
export function lfsError(status: number, message: string): Response {
  return Response.json({ message }, { status, headers: { "content-type": LFS_MEDIA_TYPE } });
}

/**
 * Answers a parsed `POST …/info/lfs/objects/batch` (see {@link parseLfsBatchRequest}). The caller
 * reads the body within its size limit, decides access first (read for download, write for
 * upload), caps the object count and records `alreadyStored` from the result.
 */
export async function handleLfsBatch(
  request: LfsBatchRequest,
  context: Omit<LfsBatchContext, "storedSize">,
  store: LfsStore,
): Promise<{ response: Response; result: LfsBatchResult }> {
  const result = await lfsBatch(request, { ...context, storedSize: (oid) => store.sizeOf(oid) });
  return {
    response: Response.json(result.response, { status: 200, headers: { "content-type": LFS_MEDIA_TYPE } }),
    result,
  };
}

/**
 * Answers `PUT …/info/lfs/objects/{oid}/{size}`: streams the body into the store, verified by
 * size and sha256 even when the object is stored already. Returns 200 with what was uploaded
 * (the caller records the reference and size), 422 on a bad upload (nothing to record).
 */
export async function handleLfsUpload(
  request: Request,
  oid: string,
  size: number,
  store: LfsStore,
): Promise<{ response: Response; stored?: LfsPutResult }> {
  if (!isValidLfsOid(oid) || !isValidLfsSize(size))
    return { response: lfsError(422, "Oid or size are invalid") };
  try {
    // No body is an empty one: it verifies only as the empty object.
    const stored = await store.put(oid, size, request.body ?? noBytes());
    return { response: new Response(null, { status: 200 }), stored };
  } catch (error) {
    if (error instanceof GitError && error.kind === "lfs_verify_failed")
      return { response: lfsError(422, error.message) };
    throw error;
  }
}

/** Answers `GET …/info/lfs/objects/{oid}` with the object's bytes, streamed; 404 when not stored. */
export async function handleLfsDownload(oid: string, store: LfsStore): Promise<Response> {
  if ((await store.sizeOf(oid)) === undefined) return lfsError(404, "Object does not exist");
  const { size, stream } = await store.get(oid);
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "application/octet-stream", "content-length": String(size) },
  });
}

/**
 * Answers `POST …/info/lfs/verify` for its parsed JSON body (`{"oid","size"}`; the caller reads
 * it within its size limit): 200 when the object is stored with that size, 404 when it is not
 * stored — or, given `referenced`, when this repository does not reference it, exactly as if it
 * did not exist — and 422 for an invalid body or another size (naming only the size sent).
 */
export async function handleLfsVerify(
  json: unknown,
  store: LfsStore,
  referenced?: (oid: string) => Promise<boolean>,
): Promise<Response> {
  const body =
    typeof json === "object" && json !== null ? (json as { oid?: unknown; size?: unknown }) : undefined;
  if (!body || !isValidLfsOid(body.oid) || !isValidLfsSize(body.size))
    return lfsError(422, "Oid or size are invalid");
  const stored = await store.sizeOf(body.oid);
  if (stored === undefined || (referenced && !(await referenced(body.oid))))
    return lfsError(404, "Object does not exist");
  if (stored !== body.size) return lfsError(422, `Object ${body.oid} is not ${body.size} bytes`);
  return new Response(null, { status: 200 });
}

async function* noBytes(): AsyncGenerator<Uint8Array> {}
