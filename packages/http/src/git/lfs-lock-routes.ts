import type { LfsLock } from "@kiln/domain";
import { formatTime, isKilnError, type User } from "@kiln/domain";
import { LFS_MEDIA_TYPE, lfsError } from "@kiln/git";
import type { AppContext, Mount } from "../env.js";
import { challenge, checkGitAccess, type GitAccess } from "./git-access.js";
import { readLfsJson } from "./lfs-json.js";
import { repoOf } from "./repo-of.js";

/** A caller with the access a lock route needs, always signed in. */
type Granted = Extract<GitAccess, { ok: true }> & { readonly user: User };

/** Forgejo's `convert.ToLFSLock`: the id as a string, the time rounded to the second, the owner's name. */
function toApiLock(lock: LfsLock) {
  const lockedAt = new Date(Math.round(lock.createdAt.getTime() / 1000) * 1000);
  return {
    id: String(lock.id),
    path: lock.path,
    locked_at: formatTime(lockedAt),
    owner: { name: lock.ownerName },
  };
}

function answer(status: number, body: unknown): Response {
  return Response.json(body, { status, headers: { "content-type": LFS_MEDIA_TYPE } });
}

/** The statuses of the lock service's refusals, in the LFS error shape. */
function refusal(err: unknown): Response {
  if (isKilnError(err)) {
    const status = { not_found: 404, permission_denied: 403, invalid_argument: 422, bad_request: 400 }[
      err.kind as string
    ];
    if (status) return lfsError(status, err.message);
  }
  throw err;
}

function objectOf(json: unknown): Record<string, unknown> | undefined {
  return typeof json === "object" && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
}

/** A page size sent as a number or a decimal string; anything else asks for the default page. */
function limitOf(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The Git LFS locking API at `/{owner}/{repo}.git/info/lfs/locks` (Forgejo's services/lfs/locks.go,
 * per the Git LFS locking specification): list (signed-in readers), create, verify and unlock
 * (writers; forcing another user's lock open needs the repository's admin permission). Clients
 * must accept `application/vnd.git-lfs+json` (415 otherwise, as Forgejo's CheckAcceptMediaType).
 * Access is the git transport's: anonymous callers are challenged, a repository the caller may not
 * see is 404, one it may not write 403. Locks are repository-wide: `refspec` and `ref` are accepted
 * and do not narrow anything, as in Forgejo.
 */
export function mountLfsLocks(mount: Mount): void {
  const guarded =
    (need: "read" | "write", handler: (c: AppContext, access: Granted) => Promise<Response>) =>
    async (c: AppContext): Promise<Response> => {
      if (!c.get("settings").lfs.enabled) return lfsError(404, "LFS is disabled");
      if ((c.req.header("Accept") ?? "").split(";")[0]?.trim() !== LFS_MEDIA_TYPE)
        return lfsError(415, "Unsupported Media Type");
      const at = repoOf(c);
      if (!at) return lfsError(404, "Repository not found");
      const access = await checkGitAccess(c, at.owner, at.name, need);
      if (!access.ok) return access.response;
      // Forgejo lists locks to signed-in readers only.
      const { user } = access;
      if (!user) return challenge();
      try {
        return await handler(c, { ...access, user });
      } catch (err) {
        return refusal(err);
      }
    };

  mount(
    "get",
    "/:owner/:repo/info/lfs/locks",
    guarded("read", async (c, { repo }) => {
      const query = (name: string) => c.req.query(name);
      const limit = limitOf(query("limit"));
      const page = await c.get("services").lfsLocks.list(repo, {
        ...(query("path") !== undefined ? { path: query("path") } : {}),
        ...(query("id") !== undefined ? { id: query("id") } : {}),
        ...(query("cursor") !== undefined ? { cursor: query("cursor") } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      return answer(200, {
        locks: page.locks.map(toApiLock),
        ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      });
    }),
  );

  mount(
    "post",
    "/:owner/:repo/info/lfs/locks",
    guarded("write", async (c, { repo, user }) => {
      const json = await readLfsJson(c);
      if (!json.ok) return json.response;
      const path = objectOf(json.value)?.path;
      if (typeof path !== "string") return lfsError(422, "path is required");
      const { created, lock } = await c.get("services").lfsLocks.create(repo, user, path);
      return created
        ? answer(201, { lock: toApiLock(lock) })
        : answer(409, { lock: toApiLock(lock), message: "already created lock" });
    }),
  );

  mount(
    "post",
    "/:owner/:repo/info/lfs/locks/verify",
    guarded("write", async (c, { repo, user }) => {
      const json = await readLfsJson(c);
      if (!json.ok) return json.response;
      const body = objectOf(json.value) ?? {};
      const cursor = typeof body.cursor === "string" ? body.cursor : undefined;
      const page = await c.get("services").lfsLocks.verify(repo, user, cursor, limitOf(body.limit));
      return answer(200, {
        ours: page.ours.map(toApiLock),
        theirs: page.theirs.map(toApiLock),
        ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      });
    }),
  );

  mount(
    "post",
    "/:owner/:repo/info/lfs/locks/:id/unlock",
    guarded("write", async (c, { repo, user, permission }) => {
      const json = await readLfsJson(c);
      if (!json.ok) return json.response;
      const force = objectOf(json.value)?.force === true;
      const lock = await c
        .get("services")
        .lfsLocks.unlock(repo, user, permission, c.req.param("id") ?? "", force);
      return answer(200, { lock: toApiLock(lock) });
    }),
  );
}
