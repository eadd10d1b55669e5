import * as v from "valibot";
import {
  Commit,
  CommitAffectedFiles,
  CommitUser,
  PayloadCommitVerification,
  TagArchiveDownloadCount,
} from "./git.js";
import { dateTime, int64 } from "./primitives.js";

/** The git operations of the API: tag protections, annotated tags, notes, compare, branch rename, git hooks. */

const NAME_MAX = 255;
const names = () => v.pipe(v.array(v.pipe(v.string(), v.maxLength(NAME_MAX))), v.maxLength(100));

/** A tag protection rule with users and teams by name (Forgejo's `TagProtection`). */
export const TagProtection = v.object({
  id: int64(),
  name_pattern: v.string(),
  whitelist_usernames: v.array(v.string()),
  whitelist_teams: v.array(v.string()),
  created_at: dateTime(),
  updated_at: dateTime(),
});

/** Body of `POST /repos/{owner}/{repo}/tag_protections`. */
export const CreateTagProtectionOption = v.object({
  name_pattern: v.optional(v.pipe(v.string(), v.maxLength(NAME_MAX))),
  whitelist_usernames: v.optional(names()),
  whitelist_teams: v.optional(names()),
});

/** Body of `PATCH /repos/{owner}/{repo}/tag_protections/{id}`: only fields that are set change. */
export const EditTagProtectionOption = CreateTagProtectionOption;

/** The object an annotated tag points at (Forgejo's `AnnotatedTagObject`). */
export const AnnotatedTagObject = v.object({
  type: v.string(),
  url: v.string(),
  sha: v.string(),
});

/** An annotated tag object (Forgejo's `AnnotatedTag`). */
export const AnnotatedTag = v.object({
  tag: v.string(),
  sha: v.string(),
  url: v.string(),
  message: v.string(),
  tagger: CommitUser,
  object: AnnotatedTagObject,
  verification: v.nullable(PayloadCommitVerification),
  archive_download_count: v.optional(TagArchiveDownloadCount),
});

/** A git note with the commit it annotates (Forgejo's `Note`). */
export const Note = v.object({
  message: v.string(),
  commit: Commit,
});

/** Body of `POST /repos/{owner}/{repo}/git/notes/{sha}` (Forgejo's `NoteOptions`). */
export const NoteOptions = v.object({
  message: v.optional(v.pipe(v.string(), v.maxLength(65536))),
});

/** The commits and files between two refs (Forgejo's `Compare`). */
export const Compare = v.object({
  total_commits: int64(),
  commits: v.array(Commit),
  files: v.array(CommitAffectedFiles),
});

/** Body of `PATCH /repos/{owner}/{repo}/branches/{branch}`: the new name. */
export const UpdateBranchRepoOption = v.object({
  name: v.pipe(v.string(), v.minLength(1, "Required"), v.maxLength(NAME_MAX)),
});

/** A server-side git hook of a repository (Forgejo's `GitHook`). */
export const GitHook = v.object({
  name: v.string(),
  is_active: v.boolean(),
  content: v.optional(v.string()),
});

/** Body of `PATCH /repos/{owner}/{repo}/hooks/git/{id}`. */
export const EditGitHookOption = v.object({
  content: v.optional(v.pipe(v.string(), v.maxLength(65536))),
});
