import { classifyGitRequest, handleGitHttp } from "@kiln/git";
import type { AppContext, Mount } from "../env.js";
import { checkGitAccess } from "./git-access.js";
import { mountLfsLocks } from "./lfs-lock-routes.js";
import { mountLfs } from "./lfs-routes.js";
import { repoOf } from "./repo-of.js";
import { serveWikiGit, wikiOf } from "./wiki-git.js";

/**
 * Git's smart HTTP protocol at `/{owner}/{repo}.git/…` (and a repository's wiki at
 * `/{owner}/{repo}.wiki.git/…`, wiki-git.ts), served by the system git
 * (decision 12, docs/decisions.md): `info/refs`, `git-upload-pack` (clone, fetch) and `git-receive-pack`
 * (push). A push is handed to the service layer's RefUpdates, which judges it with the pusher's
 * push policy, journals it before git applies it and records it after.
 */
export function mountGit(mount: Mount): void {
  const serve = async (c: AppContext) => {
    const settings = c.get("settings");
    const services = c.get("services");
    const logger = c.get("logger");
    if (settings.repository.disableHttpGit) {
      return c.text("Interacting with repositories by HTTP protocol is not allowed\n", 403);
    }
    const at = repoOf(c);
    if (!at) return c.text("Not found\n", 404);
    const subpath = c.req.path.split("/").slice(3).join("/");
    const gitRoute = classifyGitRequest(c.req.method, subpath, new URL(c.req.url).searchParams);
    if (!gitRoute) return c.text("Not found\n", 404);
    const wikiOfRepo = wikiOf(at.name);
    if (wikiOfRepo !== undefined) return serveWikiGit(c, at.owner, wikiOfRepo, subpath, gitRoute);
    const access = await checkGitAccess(c, at.owner, at.name, gitRoute.access, "repo.code", true);
    if (!access.ok) return access.response;
    const { repo, user } = access;
    const git = await services.repositories.git(repo);
    // A push is one call into the service layer (RefUpdates): its policy, its journalling before
    // git applies it and its record after. Its ref advertisement (`info/refs`) is no push.
    const options =
      gitRoute.access === "write" && gitRoute.kind === "rpc"
        ? await services.refUpdates.receivePack(repo, user, access.onlyBranches)
        : {
            onError: (err: unknown) =>
              logger.error(
                { err: (err as Error).message, repo: `${repo.ownerName}/${repo.name}` },
                "git transport error",
              ),
          };
    return handleGitHttp(git, subpath, c.req.raw, options);
  };
  mount("get", "/:owner/:repo/info/refs", serve);
  mount("post", "/:owner/:repo/git-upload-pack", serve);
  mount("post", "/:owner/:repo/git-receive-pack", serve);
  mountLfs(mount);
  mountLfsLocks(mount);
}
