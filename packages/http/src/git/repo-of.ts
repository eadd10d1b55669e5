import type { AppContext } from "../env.js";

/** `repo.git` or `repo` → `repo`, as git clients use both. */
export function bareName(repo: string): string {
  return repo.endsWith(".git") ? repo.slice(0, -4) : repo;
}

/**
 * The repository a git or LFS URL names (`/{owner}/{repo}.git/…`), or undefined when a name holds
 * a NUL byte: no account or repository can be called that, so the caller answers 404.
 */
export function repoOf(c: AppContext): { readonly owner: string; readonly name: string } | undefined {
  const owner = c.req.param("owner") ?? "";
  const name = bareName(c.req.param("repo") ?? "");
  return owner.includes("\u0000") || name.includes("\u0000") ? undefined : { owner, name };
}
