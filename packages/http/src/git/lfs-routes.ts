import { isKilnError } from "@kiln/domain";
import {
  GitError,
  handleLfsBatch,
  handleLfsDownload,
  handleLfsUpload,
  handleLfsVerify,
  isValidLfsOid,
  type LfsBatchRequest,
  lfsError,
  parseLfsBatchRequest,
} from "@kiln/git";
import { readBoundedText } from "../bounded-body.js";
import type { AppContext, Mount } from "../env.js";
import { checkGitAccess } from "./git-access.js";
import { repoOf } from "./git-routes.js";

/**
 * Git LFS at `/{owner}/{repo}.git/info/lfs/…`: the batch API, uploads, downloads and verify,
 * with the same access rules as git itself. Objects live once in a content-addressed store;
 * which repository references which object (and so the repository's `lfs_size` and its owner's
 * `sizelfs` usage) is recorded when an upload completes. JSON bodies are read only after the
 * caller may read the repository, and within `[api] MAX_BODY_SIZE`.
 */
export function mountLfs(mount: Mount): void {
  const enabled = (c: AppContext) => c.get("settings").lfs.enabled;

  mount("post", "/:owner/:repo/info/lfs/objects/batch", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const at = repoOf(c);
    if (!at) return lfsError(404, "Repository not found");
    const readable = await checkGitAccess(c, at.owner, at.name, "read");
    if (!readable.ok) return readable.response;
    const json = await readLfsJson(c);
    if (!json.ok) return json.response;
    let request: LfsBatchRequest;
    try {
      request = parseLfsBatchRequest(json.value);
    } catch (error) {
      if (error instanceof GitError && error.kind === "invalid_argument") return lfsError(422, error.message);
      throw error;
    }
    const access =
      request.operation === "upload" ? await checkGitAccess(c, at.owner, at.name, "write") : readable;
    if (!access.ok) return access.response;
    // Forgejo's BatchHandler: more objects than LFS_MAX_BATCH_SIZE is 413 (0 means no cap).
    const max = c.get("settings").lfs.maxBatchSize;
    if (max > 0 && request.objects.length > max) {
      return lfsError(413, `Request Entity Too Large: a batch may hold at most ${max} objects`);
    }
    const { repo } = access;
    const oids = [...new Set(request.objects.map((object) => object.oid).filter(isValidLfsOid))];
    const referenced = await c.get("services").repositories.lfsObjectsOf(repo, oids);
    const authorization = c.req.header("Authorization");
    const { response, result } = await handleLfsBatch(
      request,
      {
        visible: (oid) => referenced.has(oid),
        hrefBase: `${c.get("settings").server.rootUrl}${repo.ownerName}/${repo.name}.git/info/lfs`,
        ...(authorization ? { actionHeaders: { Authorization: authorization } } : {}),
      },
      c.get("services").repositories.lfs,
    );
    for (const object of result.alreadyStored)
      await c.get("services").repositories.addLfsObject(repo, object.oid, object.size);
    return response;
  });

  mount("put", "/:owner/:repo/info/lfs/objects/:oid/:size", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const at = repoOf(c);
    if (!at) return lfsError(404, "Repository not found");
    const access = await checkGitAccess(c, at.owner, at.name, "write");
    if (!access.ok) return access.response;
    const size = Number(c.req.param("size"));
    // The body streams into the store, checked against the size in the path.
    const { response, stored } = await handleLfsUpload(
      c.req.raw,
      c.req.param("oid") ?? "",
      Number.isSafeInteger(size) ? size : -1,
      c.get("services").repositories.lfs,
    );
    if (stored) await c.get("services").repositories.addLfsObject(access.repo, stored.oid, stored.size);
    return response;
  });

  mount("get", "/:owner/:repo/info/lfs/objects/:oid", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const at = repoOf(c);
    if (!at) return lfsError(404, "Repository not found");
    const access = await checkGitAccess(c, at.owner, at.name, "read");
    if (!access.ok) return access.response;
    const oid = c.req.param("oid");
    if (!isValidLfsOid(oid)) return lfsError(422, "Oid or size are invalid");
    const referenced = await c.get("services").repositories.lfsObjectsOf(access.repo, [oid]);
    if (!referenced.has(oid)) return lfsError(404, "Object does not exist");
    return handleLfsDownload(oid, c.get("services").repositories.lfs);
  });

  mount("post", "/:owner/:repo/info/lfs/verify", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const at = repoOf(c);
    if (!at) return lfsError(404, "Repository not found");
    const access = await checkGitAccess(c, at.owner, at.name, "write");
    if (!access.ok) return access.response;
    const json = await readLfsJson(c);
    if (!json.ok) return json.response;
    return handleLfsVerify(json.value, c.get("services").repositories.lfs);
  });
}

/** An LFS request's JSON body read within `[api] MAX_BODY_SIZE`, or the LFS error to answer (413, 400). */
async function readLfsJson(
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
