import { isValidBranchName, isValidTagName } from "../util/ref-names.js";
import { findBranchRule } from "./branch-rules.js";
import { parseFilePatterns } from "./file-patterns.js";
import { type PushPolicy, type RefUpdate, ZERO_SHA } from "./push-policy.js";
import { mayControlTag } from "./tag-rules.js";

/**
 * Facts about one ref update that need the repository to compute. They are asked for lazily,
 * only when a rule needs them, so a push to an unprotected branch costs nothing.
 */
export interface RefUpdateFacts {
  /** Whether the update drops commits: the old tip is not an ancestor of the new one. */
  isForcePush(update: RefUpdate): Promise<boolean>;
  /** Paths of the files the update changes (added, modified, deleted, both sides of renames). */
  changedFiles(update: RefUpdate): Promise<readonly string[]>;
  /** The sha of the first new commit that carries no signature, if any. */
  firstUnsignedCommit(update: RefUpdate): Promise<string | undefined>;
}

/** The verdict on one ref update. */
export type RefUpdateVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly message: string };

const ALLOWED: RefUpdateVerdict = { allowed: true };

function refuse(message: string): RefUpdateVerdict {
  return { allowed: false, message };
}

/**
 * The refusal of a push that creates a branch or tag under a name `git branch` or `git tag`
 * refuses (`HEAD`, `-x`, `@`, …), which git's receive-pack itself lets through. Only creations:
 * an update or deletion of such a ref (left from before this rule) stays possible, so it can be
 * removed.
 */
function refusedName(update: RefUpdate): RefUpdateVerdict | undefined {
  if (update.oldSha !== ZERO_SHA || update.newSha === ZERO_SHA) return undefined;
  if (update.ref.startsWith("refs/heads/")) {
    const name = update.ref.slice("refs/heads/".length);
    if (!isValidBranchName(name)) return refuse(`cannot create branch ${name}: git refuses this branch name`);
  } else if (update.ref.startsWith("refs/tags/")) {
    const name = update.ref.slice("refs/tags/".length);
    if (!isValidTagName(name)) return refuse(`cannot create tag ${name}: git refuses this tag name`);
  }
  return undefined;
}

/** Forgejo's refusal of a push by an owner over quota (`routers/private/hook_pre_receive.go`). */
export const QUOTA_EXCEEDED_MESSAGE = "Quota exceeded";

/**
 * Decides whether one ref update may be applied under a push policy: no new branch or tag under
 * a name git refuses, then Forgejo's order: deletion, force push, signatures, protected files,
 * push permission, unprotected files. Tags (`refs/tags/…`) follow the tag protection rules
 * (Forgejo's `Tag <name> is protected`); other refs are allowed here once their name is. Then a
 * branch update the rules allow is refused when it changes a file someone else holds a Git LFS
 * lock on. Last, an update is refused when the owner is over quota, unless it deletes the ref
 * (deleting frees space).
 */
export async function evaluateRefUpdate(
  policy: PushPolicy,
  update: RefUpdate,
  facts: RefUpdateFacts,
): Promise<RefUpdateVerdict> {
  let verdict = await evaluateRules(policy, update, facts);
  if (verdict.allowed) verdict = await evaluateLocks(policy, update, facts);
  if (verdict.allowed && policy.quotaExceeded && update.newSha !== ZERO_SHA) {
    return refuse(QUOTA_EXCEEDED_MESSAGE);
  }
  return verdict;
}

/** A branch update may not change a path another user holds a Git LFS lock on (case aside). */
async function evaluateLocks(
  policy: PushPolicy,
  update: RefUpdate,
  facts: RefUpdateFacts,
): Promise<RefUpdateVerdict> {
  const locks = policy.lfsLocks ?? [];
  if (locks.length === 0 || !update.ref.startsWith("refs/heads/") || update.newSha === ZERO_SHA)
    return ALLOWED;
  const holders = new Map(locks.map((lock) => [lock.path.toLowerCase(), lock.owner]));
  for (const path of await facts.changedFiles(update)) {
    const owner = holders.get(path.toLowerCase());
    if (owner !== undefined) return refuse(`file ${path} is locked by ${owner}`);
  }
  return ALLOWED;
}

async function evaluateRules(
  policy: PushPolicy,
  update: RefUpdate,
  facts: RefUpdateFacts,
): Promise<RefUpdateVerdict> {
  const badName = refusedName(update);
  if (badName) return badName;
  if (policy.onlyBranches && !policy.onlyBranches.some((branch) => update.ref === `refs/heads/${branch}`)) {
    return refuse("User permission denied for writing.");
  }
  // Kiln keeps refs/pull/<index>/head for each pull request: a push may not move them.
  if (update.ref.startsWith("refs/pull/"))
    return refuse(`${update.ref} is kept for pull requests and cannot be pushed`);
  if (update.ref.startsWith("refs/tags/")) {
    const tag = update.ref.slice("refs/tags/".length);
    return mayControlTag(policy.tagRules ?? [], tag) ? ALLOWED : refuse(`Tag ${tag} is protected`);
  }
  if (!update.ref.startsWith("refs/heads/")) return ALLOWED;
  const branch = update.ref.slice("refs/heads/".length);
  if (update.newSha === ZERO_SHA && policy.defaultBranch === branch) {
    return refuse(`branch ${branch} is the default branch and cannot be deleted`);
  }
  const rule = findBranchRule(policy.branchRules, branch);
  if (!rule) return ALLOWED;

  if (update.newSha === ZERO_SHA) {
    return rule.canDelete ? ALLOWED : refuse(`branch ${branch} is protected from deletion`);
  }
  if (update.oldSha !== ZERO_SHA && !rule.canForcePush && (await facts.isForcePush(update))) {
    return refuse(`branch ${branch} is protected from force push`);
  }
  if (rule.requireSignedCommits) {
    const unsigned = await facts.firstUnsignedCommit(update);
    if (unsigned) return refuse(`branch ${branch} is protected from unverified commit ${unsigned}`);
  }

  const protectedFiles = parseFilePatterns(rule.protectedFilePatterns);
  if (protectedFiles.globs.length > 0 && !rule.canChangeProtectedFiles) {
    const hit = (await facts.changedFiles(update)).find((path) => protectedFiles.matches(path));
    if (hit !== undefined) return refuse(`branch ${branch} is protected from changing file ${hit}`);
  }
  if (rule.canPush) return ALLOWED;

  const unprotectedFiles = parseFilePatterns(rule.unprotectedFilePatterns);
  if (unprotectedFiles.globs.length > 0) {
    const changed = await facts.changedFiles(update);
    if (changed.every((path) => unprotectedFiles.matches(path))) return ALLOWED;
  }
  return refuse(`Not allowed to push to protected branch ${branch}`);
}

/**
 * The refusals of a whole push, one message per refused ref update (the same message once, e.g.
 * the quota's); empty when all are allowed.
 */
export async function evaluatePush(
  policy: PushPolicy,
  updates: readonly RefUpdate[],
  facts: RefUpdateFacts,
): Promise<string[]> {
  const messages: string[] = [];
  for (const update of updates) {
    const verdict = await evaluateRefUpdate(policy, update, facts);
    if (!verdict.allowed && !messages.includes(verdict.message)) messages.push(verdict.message);
  }
  return messages;
}
