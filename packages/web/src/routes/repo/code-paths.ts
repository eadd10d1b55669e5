import type { RefKind } from "@kiln/service";
import { repoPath } from "../../urls.js";

/** A ref as the code pages link it: its kind and its name (a branch, tag or full sha). */
export interface CodeRef {
  readonly kind: RefKind;
  readonly name: string;
}

/** A repository path encoded segment by segment (slashes kept, everything else escaped). */
export function encodePath(path: string): string {
  return path
    .split("/")
    .filter(Boolean)
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/**
 * A code page's path, Forgejo's `/{owner}/{repo}/{action}/{kind}/{ref}/{path}`: `src` (the tree
 * and files), `raw`, `media` (LFS objects behind pointers), `commits` (history), `blame`.
 */
export function codePath(
  owner: string,
  repo: string,
  action: "src" | "raw" | "media" | "commits" | "blame",
  ref: CodeRef,
  path = "",
): string {
  const rest = encodePath(path);
  return `${repoPath(owner, repo)}/${action}/${ref.kind}/${encodePath(ref.name)}${rest ? `/${rest}` : ""}`;
}
