import { handleLfsBatch, handleLfsDownload, handleLfsUpload, handleLfsVerify, lfsError } from "@kiln/git";
import type { Hono } from "hono";
import type { AppContext, AppEnv } from "../env.js";
import { checkGitAccess } from "./git-access.js";
import { bareName } from "./git-routes.js";

/**
 * Git LFS at `/{owner}/{repo}.git/info/lfs/…`: the batch API, uploads, downloads and verify,
 * with the same access rules as git itself. Objects live once in a content-addressed store;
 * which repository references which object (and so the repository's `lfs_size` and its owner's
 * `sizelfs` usage) is recorded when an upload completes.
 */
export function mountLfs(app: Hono<AppEnv>): void {
  const repoOf = (c: AppContext) => ({
    owner: c.req.param("owner") ?? "",
    name: bareName(c.req.param("repo") ?? ""),
  });
  const enabled = (c: AppContext) => c.var.settings.lfs.enabled;

  app.post("/:owner/:repo/info/lfs/objects/batch", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const { owner, name } = repoOf(c);
    const body = (await c.req.raw
      .clone()
      .json()
      .catch(() => ({}))) as { operation?: unknown };
    const need = body.operation === "upload" ? "write" : "read";
    const access = await checkGitAccess(c, owner, name, need);
    if (!access.ok) return access.response;
    const { repo } = access;
    const oids = Array.isArray((body as { objects?: unknown }).objects)
      ? ((body as { objects: { oid?: unknown }[] }).objects.map((o) => String(o.oid)) as string[])
      : [];
    const referenced = await c.var.services.repositories.lfsObjectsOf(repo, oids);
    const authorization = c.req.header("Authorization");
    const { response, result } = await handleLfsBatch(
      c.req.raw,
      {
        visible: (oid) => referenced.has(oid),
        hrefBase: `${c.var.settings.server.rootUrl}${repo.ownerName}/${repo.name}.git/info/lfs`,
        ...(authorization ? { actionHeaders: { Authorization: authorization } } : {}),
      },
      c.var.services.repositories.lfs,
    );
    for (const object of result?.alreadyStored ?? [])
      await c.var.services.repositories.addLfsObject(repo, object.oid, object.size);
    return response;
  });

  app.put("/:owner/:repo/info/lfs/objects/:oid/:size", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const { owner, name } = repoOf(c);
    const access = await checkGitAccess(c, owner, name, "write");
    if (!access.ok) return access.response;
    const size = Number(c.req.param("size"));
    const { response, stored } = await handleLfsUpload(
      c.req.raw,
      c.req.param("oid"),
      Number.isSafeInteger(size) ? size : -1,
      c.var.services.repositories.lfs,
    );
    if (stored) await c.var.services.repositories.addLfsObject(access.repo, stored.oid, stored.size);
    return response;
  });

  app.get("/:owner/:repo/info/lfs/objects/:oid", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const { owner, name } = repoOf(c);
    const access = await checkGitAccess(c, owner, name, "read");
    if (!access.ok) return access.response;
    const oid = c.req.param("oid");
    const referenced = await c.var.services.repositories.lfsObjectsOf(access.repo, [oid]);
    if (!referenced.has(oid)) return lfsError(404, "Object does not exist");
    return handleLfsDownload(oid, c.var.services.repositories.lfs);
  });

  app.post("/:owner/:repo/info/lfs/verify", async (c) => {
    if (!enabled(c)) return lfsError(404, "LFS is disabled");
    const { owner, name } = repoOf(c);
    const access = await checkGitAccess(c, owner, name, "write");
    if (!access.ok) return access.response;
    return handleLfsVerify(c.req.raw, c.var.services.repositories.lfs);
  });
}
