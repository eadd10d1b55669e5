import type { BranchRulePolicy, LfsLockPolicy, PushPolicy, RefUpdate } from "./push-policy.js";
import type { TagRulePolicy } from "./tag-rules.js";

const SHA = /^[0-9a-f]{40}$/;

/** Parses the `<old> <new> <ref>` lines git feeds pre- and post-receive hooks. Malformed lines are skipped. */
export function parseRefUpdateLines(text: string): RefUpdate[] {
  const updates: RefUpdate[] = [];
  for (const line of text.split("\n")) {
    const [oldSha, newSha, ref] = line.trim().split(" ");
    if (oldSha && newSha && ref && SHA.test(oldSha) && SHA.test(newSha)) {
      updates.push({ oldSha, newSha, ref });
    }
  }
  return updates;
}

function bool(value: unknown): boolean {
  return value === true;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * Reads a push policy from its JSON form. Missing permissions default to "not allowed", so a
 * rule the caller left half-filled protects rather than opens. Throws on JSON that is not an object.
 */
export function parsePushPolicy(json: string): PushPolicy {
  const raw: unknown = JSON.parse(json);
  if (typeof raw !== "object" || raw === null) throw new Error("push policy must be a JSON object");
  const rules = (raw as { branchRules?: unknown }).branchRules;
  const branchRules: BranchRulePolicy[] = [];
  if (Array.isArray(rules)) {
    for (const rule of rules as Record<string, unknown>[]) {
      if (typeof rule !== "object" || rule === null || typeof rule.ruleName !== "string") continue;
      const priority = num(rule.priority);
      const id = num(rule.id);
      branchRules.push({
        ruleName: rule.ruleName,
        ...(priority === undefined ? {} : { priority }),
        ...(id === undefined ? {} : { id }),
        canPush: bool(rule.canPush),
        canForcePush: bool(rule.canForcePush),
        canDelete: bool(rule.canDelete),
        requireSignedCommits: bool(rule.requireSignedCommits),
        protectedFilePatterns: text(rule.protectedFilePatterns),
        unprotectedFilePatterns: text(rule.unprotectedFilePatterns),
        canChangeProtectedFiles: bool(rule.canChangeProtectedFiles),
      });
    }
  }
  const defaultBranch = (raw as { defaultBranch?: unknown }).defaultBranch;
  const quotaExceeded = bool((raw as { quotaExceeded?: unknown }).quotaExceeded);
  const rawTags = (raw as { tagRules?: unknown }).tagRules;
  const tagRules: TagRulePolicy[] = [];
  if (Array.isArray(rawTags)) {
    for (const rule of rawTags as Record<string, unknown>[]) {
      if (typeof rule !== "object" || rule === null || typeof rule.pattern !== "string") continue;
      tagRules.push({ pattern: rule.pattern, allowed: bool(rule.allowed) });
    }
  }
  const rawLocks = (raw as { lfsLocks?: unknown }).lfsLocks;
  const lfsLocks: LfsLockPolicy[] = [];
  if (Array.isArray(rawLocks)) {
    for (const lock of rawLocks as Record<string, unknown>[]) {
      if (typeof lock !== "object" || lock === null || typeof lock.path !== "string") continue;
      lfsLocks.push({ path: lock.path, owner: text(lock.owner) });
    }
  }
  const rawOnly = (raw as { onlyBranches?: unknown }).onlyBranches;
  const onlyBranches = Array.isArray(rawOnly)
    ? rawOnly.filter((name): name is string => typeof name === "string")
    : undefined;
  const rawLimits = (raw as { limits?: Record<string, unknown> }).limits;
  const maxRefs = num(rawLimits?.maxRefs);
  const maxFiles = num(rawLimits?.maxFiles);
  const limits = {
    ...(maxRefs === undefined ? {} : { maxRefs }),
    ...(maxFiles === undefined ? {} : { maxFiles }),
  };
  return {
    branchRules,
    ...(onlyBranches ? { onlyBranches } : {}),
    ...(tagRules.length > 0 ? { tagRules } : {}),
    ...(lfsLocks.length > 0 ? { lfsLocks } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    ...(typeof defaultBranch === "string" ? { defaultBranch } : {}),
    ...(quotaExceeded ? { quotaExceeded } : {}),
  };
}
