export * from "./disk/fork.js";
export type { GitRepository } from "./disk/git-repository.js";
export * from "./disk/leftovers.js";
export * from "./disk/repo-store.js";
export * from "./disk/template-content.js";
export * from "./disk/template-expansion.js";
export * from "./errors/git-error.js";
export * from "./glob/glob.js";
export * from "./hooks/branch-rules.js";
export * from "./hooks/evaluate-push.js";
export * from "./hooks/file-patterns.js";
export {
  type CommitSignatureCheck,
  type GitFactsOptions,
  gitRefUpdateFacts,
  type PushedCommit,
} from "./hooks/git-facts.js";
export { parseRefUpdateLines } from "./hooks/parse-push.js";
export type { PushLimits } from "./hooks/push-policy.js";
export * from "./hooks/push-policy.js";
export * from "./hooks/tag-rules.js";
export * from "./lfs/lfs-batch.js";
export * from "./lfs/lfs-http.js";
export * from "./lfs/lfs-oid.js";
export * from "./lfs/lfs-pointer.js";
export * from "./lfs/lfs-store.js";
export * from "./migrate/clone-remote.js";
export * from "./migrate/mirror-remote.js";
export * from "./objects/annotated-tags.js";
export * from "./objects/apply-patch.js";
export * from "./objects/archive.js";
export * from "./objects/blame.js";
export * from "./objects/blobs.js";
export * from "./objects/branches.js";
export * from "./objects/change-files.js";
export * from "./objects/commit-graph.js";
export type { CommitInfo } from "./objects/commit-info.js";
export * from "./objects/commit-signature.js";
export * from "./objects/commits.js";
export * from "./objects/contents.js";
export type { ChangedFile } from "./objects/diff-trees.js";
export * from "./objects/directory-window.js";
export { languageOf, languageStats } from "./objects/languages.js";
export { lastCommitsOf } from "./objects/last-commits.js";
export * from "./objects/notes.js";
export { type ObjectEngine, objectEngine, setObjectEngine } from "./objects/object-cache.js";
export * from "./objects/ref-in-path.js";
export * from "./objects/ref-pages.js";
export * from "./objects/refs.js";
export type { ObjectType } from "./objects/resolve.js";
export * from "./objects/signature.js";
export * from "./objects/stale-locks.js";
export * from "./objects/tags.js";
export * from "./objects/trees.js";
export * from "./pulls/index.js";
export * from "./transport/git-request.js";
export * from "./transport/smart-http.js";
export { KeyedMutex } from "./util/keyed-mutex.js";
export { isValidRefName } from "./util/ref-names.js";
export {
  configureWorkLimits,
  DEFAULT_WORK_LIMITS,
  type WorkLimits,
} from "./util/work-limits.js";
