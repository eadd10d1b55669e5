import { type GitHttpRoute, handleGitHttp } from "@kiln/git";
import type { AppContext } from "../env.js";
import { checkGitAccess } from "./git-access.js";

/** `name.wiki` → `name` when `name` is a wiki's store name (no repository may be named `*.wiki`). */
export function wikiOf(name: string): string | undefined {
  return name.toLowerCase().endsWith(".wiki") && name.length > ".wiki".length ? name.slice(0, -5) : undefined;
}

/**
 * Git's smart HTTP protocol for a repository's wiki, `/{owner}/{repo}.wiki.git/…` (Forgejo's
 * `isWiki` in routers/web/repo/githttp.go): the same access rules as the repository's, on the
 * wiki unit (reading needs it readable, pushing writable). A wiki that does not exist yet is 404
 * to readers and created by a writer's push; after a push its size is recorded as `size:wiki`.
 * Branch protection does not apply to wikis; the pre-receive hook still refuses ref names git
 * refuses, pushes past `[repository] MAX_REFS` or `MAX_FILES` and, with `[quota] ENFORCE`, an
 * owner over quota as it does for repository pushes (`PushPolicyService.forWikiPush`).
 */
export async function serveWikiGit(
  c: AppContext,
  owner: string,
  repoName: string,
  subpath: string,
  gitRoute: GitHttpRoute,
): Promise<Response> {
  const access = await checkGitAccess(c, owner, repoName, gitRoute.access, "repo.wiki");
  if (!access.ok) return access.response;
  const { repo, user } = access;
  const pushing = gitRoute.access === "write" && user !== null;
  const wiki = await c.get("services").wikis.transport(repo, pushing ? user : null);
  if (!wiki) return c.text("Repository not found\n", 404);
  return handleGitHttp(wiki.git, subpath, c.req.raw, wiki.options);
}
