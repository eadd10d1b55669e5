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
 * (push). Pushes carry the pusher's push policy to the pre-receive hook, and once git has applied
 * them the repository's size, emptiness and default branch are brought up to date (and its usage
 * recorded) before the client sees the end of the response.
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
    const policy =
      gitRoute.access === "write" && user ? await services.pushPolicies.forPush(repo, user) : undefined;
    const pushPolicy =
      policy && access.onlyBranches ? { ...policy, onlyBranches: access.onlyBranches } : policy;
    // A pull request whose head this push moves is credited to the pusher, whoever reads it first.
    const endPush = pushPolicy && user ? services.pullChecks.pushes.begin(repo.id, user.id) : undefined;
    // The updates the push policy accepted (judged for the pre-receive hook) are journalled before
    // git applies them, so a crash after leaves the journal to record the push.
    let operation: string | undefined;
    return handleGitHttp(git, subpath, c.req.raw, {
      ...(pushPolicy ? { pushPolicy } : {}),
      beforeUpdate: async (updates) => {
        operation = await services.repositories.journal.announce(repo.id, "push", user?.id ?? null, updates);
      },
      // Branches requiring signed commits: which pushed commit does not verify.
      verifyCommits: (commits) => services.commitVerifier.firstUnverified(commits),
      onPushed: async (updates) => {
        // git's probe before a large push (and a push of nothing) changes no ref: nothing to record.
        if (updates.length === 0 && !operation) return endPush?.();
        const after = await services.repositories.afterPush(
          repo,
          updates,
          user?.id ?? null,
          operation ? { operation, kind: "push" } : undefined,
        );
        const branches = updates
          .filter((u) => u.ref.startsWith("refs/heads/"))
          .map((u) => u.ref.slice("refs/heads/".length));
        await services.pullChecks.pushed(repo, branches);
        endPush?.();
        logger.info(
          {
            repo: `${repo.ownerName}/${repo.name}`,
            pusher: user?.name,
            refs: updates.length,
            gitSize: after.gitSize,
          },
          "push",
        );
      },
      onError: (err) => {
        endPush?.();
        if (operation) void services.repositories.journal.settle(operation);
        logger.error(
          { err: (err as Error).message, repo: `${repo.ownerName}/${repo.name}` },
          "git transport error",
        );
      },
    });
  };
  mount("get", "/:owner/:repo/info/refs", serve);
  mount("post", "/:owner/:repo/git-upload-pack", serve);
  mount("post", "/:owner/:repo/git-receive-pack", serve);
  mountLfs(mount);
  mountLfsLocks(mount);
}
