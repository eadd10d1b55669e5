import type { RepoNeed } from "@kiln/service";
import { repoPath } from "../../urls.js";

/** A ref name or file path in a URL: each segment encoded, the slashes kept (`feature/x`). */
export function pathSegments(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** The commit page of `sha`. */
export function commitPath(owner: string, repo: string, sha: string): string {
  return `${repoPath(owner, repo)}/commit/${encodeURIComponent(sha)}`;
}

/** The history page of a branch, tag or commit, optionally of one path (Forgejo's `/commits/{kind}/{ref}/{path}`). */
export function commitsPath(
  owner: string,
  repo: string,
  kind: "branch" | "tag" | "commit",
  ref: string,
  path = "",
): string {
  const tail = path ? `/${pathSegments(path)}` : "";
  return `${repoPath(owner, repo)}/commits/${kind}/${pathSegments(ref)}${tail}`;
}

/** A pull request's page (its conversation, another page's) and its tabs. */
export function pullPath(owner: string, repo: string, index: number, tab?: "files" | "commits"): string {
  return `${repoPath(owner, repo)}/pulls/${index}${tab ? `/${tab}` : ""}`;
}

/**
 * What the history pages need: the code unit, and like any unit a page shows, a visitor who may
 * not read it finds no page (404), as the access module decides.
 */
export const CODE_PAGE: RepoNeed = { read: "repo.code", hiddenWithout: "repo.code" };

/** What a pull request's files and commits need: the pulls unit to see them at all, and the code (the API's rule). */
export const PULL_CODE_PAGE: RepoNeed = { read: "repo.code", hiddenWithout: "repo.pulls" };

/** The short form of a commit id shown in lists (Forgejo shows 10 characters). */
export function shortSha(sha: string): string {
  return sha.slice(0, 10);
}
