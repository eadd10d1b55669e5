import type { api, Settings } from "@kiln/domain";
import { signatureDate } from "@kiln/git";
import type * as v from "valibot";
import type { ContentItem, ContentsRef } from "../git/content-service.js";
import type { FileCommitResult } from "../git/file-service.js";
import { escapeSegments, type RepoLinks, toFileCommit, toVerification } from "./git.js";

/** Go's url.QueryEscape: like encodeURIComponent, but a space is `+`. */
function queryEscape(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

/**
 * One entry of the contents API (Forgejo's `GetContents`): files carry base64 content unless
 * listed in a directory (or larger than `[api] DEFAULT_MAX_BLOB_SIZE`, then empty), symlinks
 * their target, submodules their URL and no web or blob links.
 */
export function toContentsResponse(
  item: ContentItem,
  ref: ContentsRef,
  links: RepoLinks,
  settings: Settings,
  forList: boolean,
): v.InferOutput<typeof api.ContentsResponse> {
  const { entry } = item;
  const path = escapeSegments(entry.path);
  const self = `${links.api}/contents/${path}?ref=${queryEscape(ref.name)}`;
  const where = `${ref.kind}/${escapeSegments(ref.path)}/${path}`;
  const fileLike = entry.type === "file" || entry.type === "symlink";
  const html = entry.type === "submodule" ? null : `${links.html}/src/${where}`;
  const git = entry.type === "submodule" ? null : `${links.api}/git/blobs/${entry.sha}`;
  const bytes = "content" in entry ? entry.content : undefined;
  const withContent = entry.type === "file" && !forList && bytes !== undefined;
  return {
    name: entry.name,
    path: entry.path,
    sha: entry.sha,
    last_commit_sha: item.lastCommit?.sha ?? "",
    ...(item.lastCommit ? { last_commit_when: signatureDate(item.lastCommit.committer) } : {}),
    type: entry.type,
    size: entry.size,
    encoding: withContent ? "base64" : null,
    content: withContent
      ? bytes.length > settings.api.defaultMaxBlobSize
        ? ""
        : Buffer.from(bytes).toString("base64")
      : null,
    target: entry.type === "symlink" ? (entry.target ?? "") : null,
    url: self,
    html_url: html,
    git_url: git,
    download_url: fileLike ? `${links.html}/raw/${where}` : null,
    submodule_git_url: entry.type === "submodule" ? (entry.submoduleUrl ?? null) : null,
    _links: { self, git, html },
  };
}

/** The files an API commit left (Forgejo's `FilesResponse`). */
export function toFilesResponse(
  result: FileCommitResult,
  links: RepoLinks,
  settings: Settings,
): v.InferOutput<typeof api.FilesResponse> {
  return {
    files: result.files.map((item) =>
      item ? toContentsResponse(item, result.ref, links, settings, false) : null,
    ),
    commit: toFileCommit(result.commit, links),
    verification: toVerification(result.commit),
  };
}

/** The one file an API commit created or updated (Forgejo's `FileResponse`). */
export function toFileResponse(
  result: FileCommitResult,
  links: RepoLinks,
  settings: Settings,
): v.InferOutput<typeof api.FileResponse> {
  const item = result.files[0];
  return {
    content: item ? toContentsResponse(item, result.ref, links, settings, false) : null,
    commit: toFileCommit(result.commit, links),
    verification: toVerification(result.commit),
  };
}

/** What deleting a file answers (Forgejo's `FileDeleteResponse`). */
export function toFileDeleteResponse(
  result: FileCommitResult,
  links: RepoLinks,
): v.InferOutput<typeof api.FileDeleteResponse> {
  return {
    content: null,
    commit: toFileCommit(result.commit, links),
    verification: toVerification(result.commit),
  };
}
