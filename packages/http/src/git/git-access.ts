import { hasScopes, isKilnError, type Repository, type User } from "@kiln/domain";
import { actorOf, checkNeed, type Principal, type RepoAccess, type RepoPermission } from "@kiln/service";
import { parseAuthorization } from "../auth.js";
import type { AppContext } from "../env.js";

/** The outcome of checking a git or LFS request: the repository and caller, or the response to send. */
export type GitAccess =
  | {
      readonly ok: true;
      readonly repo: Repository;
      readonly user: User | null;
      readonly permission: RepoPermission;
      /** A maintainer's push (no write access): the only branches it may update. */
      readonly onlyBranches?: readonly string[];
    }
  | { readonly ok: false; readonly response: Response };

/** 401 with a Basic challenge, so git and git-lfs ask for credentials and retry. */
export function challenge(message = "Authentication required"): Response {
  return new Response(`${message}\n`, {
    status: 401,
    headers: { "WWW-Authenticate": 'Basic realm="Kiln"', "Content-Type": "text/plain; charset=utf-8" },
  });
}

function plain(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * The git transport's access rules, decided by the access module as for the API: reading (clone, fetch, LFS download)
 * needs read access to the code (to the wiki for `<repo>.wiki.git`), writing (push, LFS upload) write access. Anonymous callers are
 * challenged (401) rather than told whether a private repository exists; signed-in callers
 * without read access get 404, without write access 403. Tokens need the repository scope.
 */
export async function checkGitAccess(
  c: AppContext,
  ownerName: string,
  repoName: string,
  need: "read" | "write",
  unit: "repo.code" | "repo.wiki" = "repo.code",
  maintainers = false,
): Promise<GitAccess> {
  const services = c.get("services");
  let principal: Principal | null = null;
  const header = c.req.header("Authorization");
  if (header) {
    try {
      principal = await services.auth.authenticate(
        parseAuthorization(header, c.req.header("X-Forgejo-OTP") ?? c.req.header("X-Gitea-OTP")),
      );
    } catch (err) {
      if (isKilnError(err) && err.kind === "unauthorized")
        return { ok: false, response: challenge(err.message) };
      if (isKilnError(err) && err.kind === "permission_denied")
        return { ok: false, response: plain(403, err.message) };
      throw err;
    }
  }
  const hidden = () => ({
    ok: false as const,
    response: principal ? plain(404, "Repository not found") : challenge(),
  });
  let access: RepoAccess;
  try {
    access = await services.access.repo(actorOf(principal), ownerName, repoName, { read: unit });
  } catch (err) {
    // A token without the repository scope learns nothing, not even where a repository went.
    const scoped = !principal?.scopes || hasScopes(principal.scopes, need, ["repository"]);
    if (isKilnError(err) && err.kind === "not_found" && scoped) {
      const moved = await services.access.repoRedirect(actorOf(principal), ownerName, repoName);
      if (moved) return { ok: false, response: movedResponse(c, moved, unit) };
    }
    if (isKilnError(err) && (err.kind === "not_found" || err.kind === "permission_denied")) return hidden();
    throw err;
  }
  const { repo, permission } = access;
  const user = principal?.user ?? null;
  if (principal?.scopes && !hasScopes(principal.scopes, need, ["repository"])) {
    return {
      ok: false,
      response: plain(403, `token does not have at least one of required scope(s): [${need}:repository]`),
    };
  }
  if (need === "write") {
    if (!principal) return { ok: false, response: challenge() };
    let onlyBranches: readonly string[] | undefined;
    try {
      checkNeed(permission, { write: [unit] }, user);
    } catch (err) {
      if (!isKilnError(err) || err.kind !== "permission_denied") throw err;
      // Maintainers of pull requests from this repository that allow their edits push to those
      // heads only (Forgejo decides it per branch in its pre-receive hook).
      onlyBranches = maintainers ? await services.pulls.maintainerBranches(access.actor, repo) : [];
      if (onlyBranches.length === 0) return { ok: false, response: plain(403, "User permission denied") };
    }
    if (repo.isArchived) return { ok: false, response: plain(403, "This repository is archived") };
    if (repo.isMirror) return { ok: false, response: plain(403, "Mirror repositories are read-only") };
    if (onlyBranches) return { ok: true, repo, user, permission, onlyBranches };
  }
  return { ok: true, repo, user, permission };
}

/**
 * A 307 from an old `owner/name` (renamed or transferred) to the same git or LFS path under the
 * repository's current name: git's smart HTTP client follows it on its first request and then
 * talks to the new URL. Only given when the caller may read the repository.
 */
function movedResponse(
  c: AppContext,
  moved: { readonly owner: string; readonly name: string },
  unit: "repo.code" | "repo.wiki",
): Response {
  const url = new URL(c.req.url);
  const segments = url.pathname.split("/");
  // A wiki's old URL leads to the same wiki under the new name, never to the code repository.
  const suffix = unit === "repo.wiki" ? ".wiki.git" : segments[2]?.endsWith(".git") ? ".git" : "";
  segments[1] = encodeURIComponent(moved.owner);
  segments[2] = `${encodeURIComponent(moved.name)}${suffix}`;
  return new Response(null, { status: 307, headers: { Location: `${segments.join("/")}${url.search}` } });
}
