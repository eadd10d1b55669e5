import { isKilnError, type Repository, type User } from "@kiln/domain";
import {
  GitError,
  handleLfsBatch,
  handleLfsDownload,
  handleLfsUpload,
  handleLfsVerify,
  isValidLfsOid,
  type LfsBatchRequest,
  type LfsViewer,
  lfsError,
  parseLfsBatchRequest,
} from "@kiln/git";
import { actorOf, type Credentials, publicOnlyViewer, viewerOf } from "@kiln/service";
import { parseAuthorization } from "../auth.js";
import type { AppContext, Mount } from "../env.js";
import { checkGitAccess } from "./git-access.js";
import { readLfsJson } from "./lfs-json.js";
import { repoOf } from "./repo-of.js";

/**
 * Git LFS at `/{owner}/{repo}.git/info/lfs/…`: the batch API, uploads, downloads and verify,
 * with the same access rules as git itself. Objects live once in a content-addressed store;
 * which repository references which object (and so the repository's `lfs_size` and its owner's
 * `sizelfs` usage) is recorded when a verified upload completes, or when a batch upload names a
 * stored object the caller can see in another repository (Forgejo's BatchHandler). An object
 * this repository does not reference is answered exactly like one that does not exist. JSON
 * bodies are read only after the caller may read the repository, and within `[api] MAX_BODY_SIZE`.
 * With `[quota] ENFORCE`, uploads for an owner over quota are refused with 413.
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
    if (request.operation === "upload" && (await overQuota(c, access.repo))) return quotaExceeded();
    // Forgejo's BatchHandler: more objects than LFS_MAX_BATCH_SIZE is 413 (0 means no cap).
    const max = c.get("settings").lfs.maxBatchSize;
    if (max > 0 && request.objects.length > max) {
      return lfsError(413, `Request Entity Too Large: a batch may hold at most ${max} objects`);
    }
    const { repo } = access;
    const oids = [...new Set(request.objects.map((object) => object.oid).filter(isValidLfsOid))];
    const services = c.get("services");
    const referenced = await services.repositories.lfsObjectsOf(repo, oids);
    const references = services.repositories.lfs.references;
    let viewer: Promise<LfsViewer> | undefined;
    const authorization = c.req.header("Authorization");
    const { response } = await handleLfsBatch(
      request,
      {
        visible: (oid) => referenced.has(oid),
        ...(request.operation === "upload" && references
          ? {
              linkStored: async (oid: string, size: number) => {
                viewer ??= lfsViewerOf(c, access.user);
                return references.linkVisible(repo.id, await viewer, oid, size);
              },
            }
          : {}),
        hrefBase: `${c.get("settings").server.rootUrl}${repo.ownerName}/${repo.name}.git/info/lfs`,
        ...(authorization ? { actionHeaders: { Authorization: authorization } } : {}),
      },
      services.repositories.lfs,
    );
    return response;
  });

  mount("put", "/:owner/:repo/info/lfs/objects/:oid/:size", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const at = repoOf(c);
    if (!at) return lfsError(404, "Repository not found");
    const access = await checkGitAccess(c, at.owner, at.name, "write");
    if (!access.ok) return access.response;
    // Refused before a byte is read, whatever the store holds: a reference adds usage too.
    if (await overQuota(c, access.repo)) return quotaExceeded();
    const size = Number(c.req.param("size"));
    // The body streams into the store, checked against the oid and size in the path even when the
    // store has the object already: only a verified body gets this repository a reference.
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
    const { repositories } = c.get("services");
    return handleLfsVerify(json.value, repositories.lfs, async (oid) =>
      (await repositories.lfsObjectsOf(access.repo, [oid])).has(oid),
    );
  });
}

/**
 * Forgejo's LFS quota check (`services/lfs/server.go`): with `[quota] ENFORCE`, uploads to a
 * repository whose owner is over quota for `size:git:lfs` are refused, in a batch request and in
 * the upload itself. It reads the owner's ledger row.
 */
function overQuota(c: AppContext, repo: Pick<Repository, "ownerId" | "ownerName">): Promise<boolean> {
  return c.get("services").quota.exceeds({ id: repo.ownerId, name: repo.ownerName }, "size:git:lfs");
}

/** Forgejo's answer to an upload over quota: 413 with the LFS error body `{"message":"quota exceeded"}`. */
function quotaExceeded(): Response {
  return lfsError(413, "quota exceeded");
}

/**
 * The caller as repository visibility sees it, to decide whether it can see another repository
 * that holds an object. checkGitAccess authenticated the request but hands back only the user,
 * and only a token can be `public-only`, so the credential is resolved again as a token (from the
 * credential cache) and never again as a password (its TOTP passcode is single-use); a password
 * is never public-only. Anything unexpected counts as public-only, which can only mean an upload.
 */
async function lfsViewerOf(c: AppContext, user: User | null): Promise<LfsViewer> {
  if (!user) return null;
  const cautious = publicOnlyViewer(user);
  let credentials: Credentials;
  try {
    credentials = parseAuthorization(c.req.header("Authorization") ?? "", undefined);
  } catch {
    return cautious;
  }
  const tokenInUsername =
    credentials.kind === "basic" && (credentials.password === "" || credentials.password === "x-oauth-basic");
  const token =
    credentials.kind === "token"
      ? credentials.token
      : tokenInUsername
        ? credentials.username
        : credentials.password;
  try {
    const principal = await c.get("services").auth.authenticate({ kind: "token", token });
    return principal.user.id === user.id ? viewerOf(actorOf(principal)) : cautious;
  } catch (error) {
    const password = credentials.kind === "basic" && !tokenInUsername;
    if (password && isKilnError(error) && error.kind === "unauthorized")
      return { ...cautious, publicOnly: false };
    return cautious;
  }
}
