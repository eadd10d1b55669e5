import * as v from "valibot";
import { CommitMeta, CommitUser, Identity, PayloadCommitVerification } from "./git.js";
import { dateTime, int64 } from "./primitives.js";

/** Links of a contents entry (Forgejo's `FileLinksResponse`); submodules have no git or html link. */
export const FileLinksResponse = v.object({
  self: v.nullable(v.string()),
  git: v.nullable(v.string()),
  html: v.nullable(v.string()),
});

/**
 * A file, directory, symlink or submodule at a ref (Forgejo's `ContentsResponse`). `type` is
 * `file` (executables too), `dir`, `symlink` or `submodule`; `content` is base64 and only set for
 * a single file, `target` only for symlinks.
 */
export const ContentsResponse = v.object({
  name: v.string(),
  path: v.string(),
  sha: v.string(),
  last_commit_sha: v.string(),
  last_commit_when: v.optional(dateTime()),
  type: v.string(),
  size: int64(),
  encoding: v.nullable(v.string()),
  content: v.nullable(v.string()),
  target: v.nullable(v.string()),
  url: v.nullable(v.string()),
  html_url: v.nullable(v.string()),
  git_url: v.nullable(v.string()),
  download_url: v.nullable(v.string()),
  submodule_git_url: v.nullable(v.string()),
  _links: FileLinksResponse,
});

/** The commit an API file change made (Forgejo's `FileCommitResponse`). */
export const FileCommitResponse = v.object({
  url: v.string(),
  sha: v.string(),
  created: dateTime(),
  html_url: v.string(),
  author: CommitUser,
  committer: CommitUser,
  parents: v.array(CommitMeta),
  message: v.string(),
  tree: CommitMeta,
});

/** The result of creating or updating one file (Forgejo's `FileResponse`). */
export const FileResponse = v.object({
  content: v.nullable(ContentsResponse),
  commit: FileCommitResponse,
  verification: PayloadCommitVerification,
});

/** The result of a several-file commit (Forgejo's `FilesResponse`); deleted files are null. */
export const FilesResponse = v.object({
  files: v.array(v.nullable(ContentsResponse)),
  commit: FileCommitResponse,
  verification: PayloadCommitVerification,
});

/** The result of deleting a file (Forgejo's `FileDeleteResponse`); `content` is always null. */
export const FileDeleteResponse = v.object({
  content: v.null(),
  commit: FileCommitResponse,
  verification: PayloadCommitVerification,
});

/** Author and committer dates of an API commit (Forgejo's `CommitDateOptions`). */
export const CommitDateOptions = v.object({
  author: v.optional(dateTime()),
  committer: v.optional(dateTime()),
});

const base64 = () => v.string();

/** What every file-changing body has (Forgejo's `FileOptions`). */
const fileOptions = {
  /** The branch to base the change on; the default branch when absent. */
  branch: v.optional(v.string()),
  /** Commit to this new branch (created from `branch`) instead. */
  new_branch: v.optional(v.string()),
  message: v.optional(v.string()),
  author: v.optional(Identity),
  committer: v.optional(Identity),
  dates: v.optional(CommitDateOptions),
  signoff: v.optional(v.boolean()),
};

/** Body of `POST /repos/{owner}/{repo}/contents/{filepath}`. */
export const CreateFileOptions = v.object({
  ...fileOptions,
  content: base64(),
});

/** Body of `PUT /repos/{owner}/{repo}/contents/{filepath}`: `sha` is the blob sha being replaced. */
export const UpdateFileOptions = v.object({
  ...fileOptions,
  content: base64(),
  sha: v.pipe(v.string(), v.minLength(1, "Required")),
  from_path: v.optional(v.string()),
});

/** Body of `DELETE /repos/{owner}/{repo}/contents/{filepath}`. */
export const DeleteFileOptions = v.object({
  ...fileOptions,
  sha: v.pipe(v.string(), v.minLength(1, "Required")),
});

/** One operation of a several-file commit (Forgejo's `ChangeFileOperation`). */
export const ChangeFileOperation = v.object({
  operation: v.picklist(["create", "update", "delete"]),
  path: v.string(),
  content: v.optional(base64()),
  from_path: v.optional(v.string()),
  sha: v.optional(v.string()),
});

/** Body of `POST /repos/{owner}/{repo}/contents` (Forgejo's `ChangeFilesOptions`). */
export const ChangeFilesOptions = v.object({
  ...fileOptions,
  files: v.pipe(v.array(ChangeFileOperation), v.minLength(1, "Required")),
});

/**
 * Body of `POST /repos/{owner}/{repo}/diffpatch` (Forgejo's `ApplyDiffPatchFileOptions`): a
 * unified diff in `content`, committed to `branch` (or `new_branch`).
 */
export const ApplyDiffPatchFileOptions = v.object({
  ...fileOptions,
  sha: v.optional(v.pipe(v.string(), v.maxLength(64))),
  content: v.pipe(v.string(), v.minLength(1, "Required")),
});
