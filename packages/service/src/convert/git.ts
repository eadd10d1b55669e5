import type { api, Repository, Settings } from "@kiln/domain";
import type { BlobInfo, CommitInfo, GitSignature, RefInfo, TagInfo, TreeListing } from "@kiln/git";
import { signatureDate } from "@kiln/git";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { CommitEntry } from "../git/commit-service.js";
import type { CommitUsers } from "../git/commit-users.js";
import type { CommitVerification } from "../keys/commit-verification.js";
import { toApiUser } from "./user.js";

/** The API and web base URLs of a repository (Forgejo's `APIURL()` and `HTMLURL()`). */
export interface RepoLinks {
  readonly api: string;
  readonly html: string;
}

/** A repository's links under ROOT_URL. */
export function repoLinks(repo: Repository, settings: Settings): RepoLinks {
  const full = `${escapeSegments(repo.ownerName)}/${escapeSegments(repo.name)}`;
  const root = settings.server.rootUrl;
  return { api: `${root}api/v1/repos/${full}`, html: `${root}${full}` };
}

/** Escapes each `/`-separated segment of a path for a URL (Go's `util.PathEscapeSegments`). */
export function escapeSegments(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** A git identity with its date in the signer's timezone (Forgejo's `CommitUser`). */
export function toCommitUser(sig: GitSignature): v.InferOutput<typeof api.CommitUser> {
  return { name: sig.name, email: sig.email, date: signatureDate(sig) };
}

/**
 * Forgejo's verification of a commit (convert.ToVerification): the service's check when it made
 * one; otherwise unsigned commits say so and signed ones report that no key matched.
 */
export function toVerification(
  commit: CommitInfo,
  checked?: CommitVerification,
): v.InferOutput<typeof api.PayloadCommitVerification> {
  if (checked) {
    return {
      verified: checked.verified,
      reason: checked.reason,
      signature: checked.signature,
      signer: checked.signer
        ? { name: checked.signer.name, email: checked.signer.email, username: checked.signer.name }
        : null,
      payload: checked.payload,
    };
  }
  return {
    verified: false,
    reason: commit.signed ? "gpg.error.no_gpg_keys_found" : "gpg.error.not_signed_commit",
    signature: "",
    signer: null,
    payload: "",
  };
}

/** Go's zero time: Forgejo's `created` of a commit it names without reading it (a parent). */
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

function commitMeta(links: RepoLinks, kind: "commits" | "trees", sha: string, created?: GitSignature) {
  return {
    url: `${links.api}/git/${kind}/${sha}`,
    sha,
    created: created ? signatureDate(created) : GO_ZERO_TIME,
  };
}

/** A commit as Forgejo's `Commit`, with the Kiln accounts of its author and committer when known. */
export function toApiCommit(
  commit: CommitEntry,
  users: CommitUsers,
  links: RepoLinks,
  sight: AccountSight,
  settings: Settings,
  options: { readonly verification?: boolean; readonly checked?: CommitVerification } = {},
): v.InferOutput<typeof api.Commit> {
  const account = (email: string) => {
    const user = users.get(email);
    return user ? toApiUser(user, sight, settings) : null;
  };
  return {
    url: `${links.api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created: signatureDate(commit.committer),
    html_url: `${links.html}/commit/${commit.sha}`,
    commit: {
      url: `${links.api}/git/commits/${commit.sha}`,
      author: toCommitUser(commit.author),
      committer: toCommitUser(commit.committer),
      message: commit.message,
      tree: commitMeta(links, "trees", commit.tree, commit.committer),
      verification: options.verification === false ? null : toVerification(commit, options.checked),
    },
    author: account(commit.author.email),
    committer: account(commit.committer.email),
    parents: commit.parents.map((sha) => commitMeta(links, "commits", sha)),
    ...(commit.files ? { files: commit.files.map((f) => ({ filename: f.filename, status: f.status })) } : {}),
    ...(commit.stats ? { stats: commit.stats } : {}),
  };
}

/** A commit as branches show it (Forgejo's `PayloadCommit`). */
export function toPayloadCommit(
  commit: CommitInfo,
  users: CommitUsers,
  links: RepoLinks,
  checked?: CommitVerification,
): v.InferOutput<typeof api.PayloadCommit> {
  const person = (sig: GitSignature) => ({
    name: sig.name,
    email: sig.email,
    username: users.get(sig.email)?.name ?? "",
  });
  return {
    id: commit.sha,
    message: commit.message,
    url: `${links.html}/commit/${commit.sha}`,
    author: person(commit.author),
    committer: person(commit.committer),
    verification: toVerification(commit, checked),
    timestamp: signatureDate(commit.author),
    added: null,
    removed: null,
    modified: null,
  };
}

/** The commit an API file change made (Forgejo's `FileCommitResponse`). */
export function toFileCommit(
  commit: CommitInfo,
  links: RepoLinks,
): v.InferOutput<typeof api.FileCommitResponse> {
  return {
    url: `${links.api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created: signatureDate(commit.committer),
    html_url: `${links.html}/commit/${commit.sha}`,
    author: toCommitUser(commit.author),
    committer: toCommitUser(commit.committer),
    parents: commit.parents.map((sha) => commitMeta(links, "commits", sha)),
    message: commit.message,
    tree: commitMeta(links, "trees", commit.tree, commit.committer),
  };
}

/** A ref (Forgejo's `Reference`). */
export function toReference(ref: RefInfo, links: RepoLinks): v.InferOutput<typeof api.Reference> {
  return {
    ref: ref.ref,
    url: `${links.api}/git/${escapeSegments(ref.ref)}`,
    object: { type: ref.type, sha: ref.sha, url: `${links.api}/git/${ref.type}s/${ref.sha}` },
  };
}

/** A page of a tree (Forgejo's `GitTreeResponse`); submodule entries have no URL, as on GitHub. */
export function toGitTree(tree: TreeListing, links: RepoLinks): v.InferOutput<typeof api.GitTreeResponse> {
  return {
    sha: tree.sha,
    url: `${links.api}/git/trees/${tree.sha}`,
    tree: tree.entries.map((entry) => ({
      path: entry.path,
      mode: entry.mode,
      type: entry.type,
      size: entry.size ?? 0,
      sha: entry.sha,
      url:
        entry.type === "commit"
          ? ""
          : `${links.api}/git/${entry.type === "tree" ? "trees" : "blobs"}/${entry.sha}`,
    })),
    truncated: tree.truncated,
    page: tree.page,
    total_count: tree.totalCount,
  };
}

/** A blob (Forgejo's `GitBlobResponse`). */
export function toGitBlob(blob: BlobInfo, links: RepoLinks): v.InferOutput<typeof api.GitBlobResponse> {
  return {
    content: blob.content,
    encoding: blob.encoding,
    url: `${links.api}/git/blobs/${blob.sha}`,
    sha: blob.sha,
    size: blob.size,
  };
}

/**
 * A tag (Forgejo's `Tag`): `id` is the tag object for annotated tags, the commit for lightweight
 * ones, whose message is the commit's.
 */
export function toApiTag(tag: TagInfo, links: RepoLinks): v.InferOutput<typeof api.Tag> {
  const commitSha = tag.commit?.sha ?? tag.sha;
  const date = tag.tagger ?? tag.commit?.committer;
  return {
    name: tag.name,
    message: (tag.message ?? tag.commit?.message ?? "").trim(),
    id: tag.sha,
    commit: commitMeta(links, "commits", commitSha, date),
    zipball_url: `${links.html}/archive/${escapeSegments(tag.name)}.zip`,
    tarball_url: `${links.html}/archive/${escapeSegments(tag.name)}.tar.gz`,
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
