import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";
import { User } from "./user.js";

/** An author or committer of a commit, as Forgejo's `CommitUser`; `date` is RFC 3339. */
export const CommitUser = v.object({
  name: v.string(),
  email: v.string(),
  date: v.string(),
});

/** A name and e-mail address a commit is written with (Forgejo's `Identity`). */
export const Identity = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  email: v.optional(v.pipe(v.string(), v.maxLength(254))),
});

/**
 * A reference to a commit or tree: sha, API URL and date (Forgejo's `CommitMeta`). `created` is
 * always sent; Forgejo leaves it Go's zero time (`0001-01-01T00:00:00Z`) for parents.
 */
export const CommitMeta = v.object({
  url: v.string(),
  sha: v.string(),
  created: dateTime(),
});

/** A git identity with the Kiln account it belongs to, if any (Forgejo's `PayloadUser`). */
export const PayloadUser = v.object({
  name: v.string(),
  email: v.string(),
  username: v.string(),
});

/**
 * Whether a commit's signature was verified (Forgejo's `PayloadCommitVerification`). Kiln keeps
 * no keyring, so commits are reported unverified with the reason Forgejo gives.
 */
export const PayloadCommitVerification = v.object({
  verified: v.boolean(),
  reason: v.string(),
  signature: v.string(),
  signer: v.nullable(PayloadUser),
  payload: v.string(),
});

/** The git part of a commit (Forgejo's `RepoCommit`). */
export const RepoCommit = v.object({
  url: v.string(),
  author: CommitUser,
  committer: CommitUser,
  message: v.string(),
  tree: CommitMeta,
  verification: v.optional(v.nullable(PayloadCommitVerification)),
});

/** Line counts of a commit against its first parent (Forgejo's `CommitStats`). */
export const CommitStats = v.object({
  total: int64(),
  additions: int64(),
  deletions: int64(),
});

/** A file a commit touched (Forgejo's `CommitAffectedFiles`). */
export const CommitAffectedFiles = v.object({
  filename: v.string(),
  status: v.string(),
});

/** A commit with the accounts of its author and committer (Forgejo's `Commit`). */
export const Commit = v.object({
  url: v.string(),
  sha: v.string(),
  created: dateTime(),
  html_url: v.string(),
  commit: RepoCommit,
  author: v.nullable(User),
  committer: v.nullable(User),
  parents: v.array(CommitMeta),
  files: v.optional(v.array(CommitAffectedFiles)),
  stats: v.optional(CommitStats),
});

/** A commit as branches and webhooks show it (Forgejo's `PayloadCommit`). */
export const PayloadCommit = v.object({
  id: v.string(),
  message: v.string(),
  url: v.string(),
  author: PayloadUser,
  committer: PayloadUser,
  verification: v.nullable(PayloadCommitVerification),
  timestamp: dateTime(),
  added: v.nullable(v.array(v.string())),
  removed: v.nullable(v.array(v.string())),
  modified: v.nullable(v.array(v.string())),
});

/** The object a ref points at (Forgejo's `GitObject`). */
export const GitObject = v.object({
  type: v.string(),
  sha: v.string(),
  url: v.string(),
});

/** A git ref (Forgejo's `Reference`). */
export const Reference = v.object({
  ref: v.string(),
  url: v.string(),
  object: GitObject,
});

/** One entry of a tree listing (Forgejo's `GitEntry`). */
export const GitEntry = v.object({
  path: v.string(),
  mode: v.string(),
  type: v.string(),
  size: int64(),
  sha: v.string(),
  url: v.string(),
});

/** A page of a tree listing (Forgejo's `GitTreeResponse`). */
export const GitTreeResponse = v.object({
  sha: v.string(),
  url: v.string(),
  tree: v.array(GitEntry),
  truncated: v.boolean(),
  page: int64(),
  total_count: int64(),
});

/**
 * A blob with its base64 content (Forgejo's `GitBlobResponse`); `content` and `encoding` are null
 * for a blob larger than `[api] DEFAULT_MAX_BLOB_SIZE`.
 */
export const GitBlobResponse = v.object({
  content: v.nullable(v.string()),
  encoding: v.nullable(v.string()),
  url: v.string(),
  sha: v.string(),
  size: int64(),
});

/** Bytes of code per language (`GET /repos/{owner}/{repo}/languages`). */
export const LanguageStatistics = v.record(v.string(), int64());

/** How often a tag's archives were downloaded (Forgejo's `TagArchiveDownloadCount`). */
export const TagArchiveDownloadCount = v.object({
  zip: int64(),
  tar_gz: int64(),
});

/** A tag (Forgejo's `Tag`): `id` is the tag object's sha for annotated tags, else the commit's. */
export const Tag = v.object({
  name: v.string(),
  message: v.string(),
  id: v.string(),
  commit: CommitMeta,
  zipball_url: v.string(),
  tarball_url: v.string(),
  archive_download_count: v.optional(TagArchiveDownloadCount),
});

/** Body of `POST /repos/{owner}/{repo}/tags`: a non-empty `message` makes an annotated tag. */
export const CreateTagOption = v.object({
  tag_name: v.pipe(v.string(), v.minLength(1, "Required")),
  message: v.optional(v.string()),
  target: v.optional(v.string()),
});
