import { describe, expect, it } from "vitest";
import { evaluatePush, evaluateRefUpdate, type RefUpdateFacts } from "./evaluate-push.js";
import type { BranchRulePolicy, PushPolicy, RefUpdate } from "./push-policy.js";
import { ZERO_SHA } from "./push-policy.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

function rule(overrides: Partial<BranchRulePolicy> = {}): BranchRulePolicy {
  return {
    ruleName: "main",
    canPush: true,
    canForcePush: false,
    canDelete: false,
    requireSignedCommits: false,
    protectedFilePatterns: "",
    unprotectedFilePatterns: "",
    canChangeProtectedFiles: false,
    ...overrides,
  };
}

function facts(
  values: { force?: boolean; files?: string[]; unsigned?: string } = {},
): RefUpdateFacts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    isForcePush: async () => {
      asked.push("force");
      return values.force ?? false;
    },
    changedFiles: async () => {
      asked.push("files");
      return values.files ?? [];
    },
    firstUnsignedCommit: async () => {
      asked.push("signed");
      return values.unsigned;
    },
  };
}

const update = (ref = "refs/heads/main", oldSha = A, newSha = B): RefUpdate => ({ oldSha, newSha, ref });

describe("evaluateRefUpdate", () => {
  it("allows anything on an unprotected branch without computing facts", async () => {
    const f = facts({ force: true });
    const policy: PushPolicy = { branchRules: [rule()] };
    expect(await evaluateRefUpdate(policy, update("refs/heads/dev"), f)).toEqual({ allowed: true });
    expect(await evaluateRefUpdate(policy, update("refs/tags/v1"), f)).toEqual({ allowed: true });
    expect(f.asked).toEqual([]);
  });

  it("refuses any push to refs/pull/, which Kiln keeps for pull requests", async () => {
    for (const u of [
      update("refs/pull/1/head"),
      update("refs/pull/2/head", ZERO_SHA, B),
      update("refs/pull/1/head", A, ZERO_SHA),
    ]) {
      expect(await evaluateRefUpdate({ branchRules: [] }, u, facts())).toEqual({
        allowed: false,
        message: `${u.ref} is kept for pull requests and cannot be pushed`,
      });
    }
  });

  it("lets a pusher limited to some branches (a maintainer's edits) update those and nothing else", async () => {
    const policy: PushPolicy = { branchRules: [], onlyBranches: ["feature"] };
    expect(await evaluateRefUpdate(policy, update("refs/heads/feature"), facts())).toEqual({ allowed: true });
    for (const u of [
      update("refs/heads/main"),
      update("refs/tags/v1", ZERO_SHA, B),
      update("refs/heads/feature2"),
    ]) {
      expect(await evaluateRefUpdate(policy, u, facts())).toEqual({
        allowed: false,
        message: "User permission denied for writing.",
      });
    }
  });

  it("refuses deleting a protected branch unless the rule allows it", async () => {
    const deletion = update("refs/heads/main", A, ZERO_SHA);
    expect(await evaluateRefUpdate({ branchRules: [rule()] }, deletion, facts())).toEqual({
      allowed: false,
      message: "branch main is protected from deletion",
    });
    expect(await evaluateRefUpdate({ branchRules: [rule({ canDelete: true })] }, deletion, facts())).toEqual({
      allowed: true,
    });
  });

  it("refuses deleting the default branch even without a rule", async () => {
    const verdict = await evaluateRefUpdate(
      { branchRules: [], defaultBranch: "trunk" },
      update("refs/heads/trunk", A, ZERO_SHA),
      facts(),
    );
    expect(verdict).toEqual({
      allowed: false,
      message: "branch trunk is the default branch and cannot be deleted",
    });
  });

  it("refuses a force push unless allowed, and never asks for a new branch", async () => {
    const policy = { branchRules: [rule()] };
    expect(await evaluateRefUpdate(policy, update(), facts({ force: true }))).toEqual({
      allowed: false,
      message: "branch main is protected from force push",
    });
    expect(await evaluateRefUpdate(policy, update(), facts({ force: false }))).toEqual({ allowed: true });
    const creation = facts({ force: true });
    expect(await evaluateRefUpdate(policy, update("refs/heads/main", ZERO_SHA, B), creation)).toEqual({
      allowed: true,
    });
    expect(creation.asked).not.toContain("force");
    const permitted = { branchRules: [rule({ canForcePush: true })] };
    expect(await evaluateRefUpdate(permitted, update(), facts({ force: true }))).toEqual({ allowed: true });
  });

  it("refuses unsigned commits when signatures are required", async () => {
    const policy = { branchRules: [rule({ requireSignedCommits: true })] };
    expect(await evaluateRefUpdate(policy, update(), facts({ unsigned: B }))).toEqual({
      allowed: false,
      message: `branch main is protected from unverified commit ${B}`,
    });
    expect(await evaluateRefUpdate(policy, update(), facts())).toEqual({ allowed: true });
  });

  it("refuses changes to protected files unless the pusher may change them", async () => {
    const policy = { branchRules: [rule({ protectedFilePatterns: "*.lock;config/**" })] };
    const changing = facts({ files: ["src/a.ts", "config/prod/app.yml"] });
    expect(await evaluateRefUpdate(policy, update(), changing)).toEqual({
      allowed: false,
      message: "branch main is protected from changing file config/prod/app.yml",
    });
    expect(await evaluateRefUpdate(policy, update(), facts({ files: ["src/a.ts"] }))).toEqual({
      allowed: true,
    });
    const trusted = {
      branchRules: [rule({ protectedFilePatterns: "*.lock", canChangeProtectedFiles: true })],
    };
    expect(await evaluateRefUpdate(trusted, update(), facts({ files: ["yarn.lock"] }))).toEqual({
      allowed: true,
    });
  });

  it("refuses a pusher without push permission unless only unprotected files change", async () => {
    const closed = { branchRules: [rule({ canPush: false })] };
    expect(await evaluateRefUpdate(closed, update(), facts({ files: ["docs/a.md"] }))).toEqual({
      allowed: false,
      message: "Not allowed to push to protected branch main",
    });
    const open = { branchRules: [rule({ canPush: false, unprotectedFilePatterns: "docs/**" })] };
    expect(await evaluateRefUpdate(open, update(), facts({ files: ["docs/a.md", "docs/b/c.md"] }))).toEqual({
      allowed: true,
    });
    expect(
      await evaluateRefUpdate(open, update(), facts({ files: ["docs/a.md", "src/x.ts"] })),
    ).toMatchObject({
      allowed: false,
    });
  });

  it("refuses creating branches and tags under names git refuses, with no rule at all, but lets them be deleted", async () => {
    const none: PushPolicy = { branchRules: [] };
    for (const name of ["HEAD", "-x", "@", "a..b"]) {
      for (const [kind, prefix] of [
        ["branch", "refs/heads/"],
        ["tag", "refs/tags/"],
      ] as const) {
        const f = facts();
        expect(await evaluateRefUpdate(none, update(`${prefix}${name}`, ZERO_SHA, B), f), name).toEqual({
          allowed: false,
          message: `cannot create ${kind} ${name}: git refuses this ${kind} name`,
        });
        expect(await evaluateRefUpdate(none, update(`${prefix}${name}`, A, ZERO_SHA), f), name).toEqual({
          allowed: true,
        });
        expect(f.asked).toEqual([]);
      }
    }
    // Names git allows, and refs outside branches and tags, are not this rule's business.
    for (const ref of ["refs/heads/x@y", "refs/heads/feature/HEAD", "refs/tags/v1", "refs/notes/HEAD"]) {
      expect(await evaluateRefUpdate(none, update(ref, ZERO_SHA, B), facts()), ref).toEqual({
        allowed: true,
      });
    }
  });

  it("refuses every update but deletions when the owner is over quota, after the rules, as Forgejo", async () => {
    const over: PushPolicy = { branchRules: [rule({ canDelete: true })], quotaExceeded: true };
    const quota = { allowed: false, message: "Quota exceeded" };
    for (const ref of ["refs/heads/dev", "refs/heads/main", "refs/tags/v1", "refs/notes/commits"]) {
      expect(await evaluateRefUpdate(over, update(ref), facts())).toEqual(quota);
      expect(await evaluateRefUpdate(over, update(ref, ZERO_SHA, B), facts())).toEqual(quota);
      // Deleting frees space: allowed (main's rule allows deleting it).
      expect(await evaluateRefUpdate(over, update(ref, A, ZERO_SHA), facts())).toEqual({ allowed: true });
    }
    // A refusal of the rules keeps its own message.
    const protectedMain = { branchRules: [rule({ canPush: false })], quotaExceeded: true };
    expect(await evaluateRefUpdate(protectedMain, update(), facts())).toEqual({
      allowed: false,
      message: "Not allowed to push to protected branch main",
    });
    expect(await evaluateRefUpdate({ branchRules: [] }, update(), facts())).toEqual({ allowed: true });
  });

  it("refuses a branch update that changes a file another user holds a Git LFS lock on, case aside", async () => {
    const policy: PushPolicy = { branchRules: [], lfsLocks: [{ path: "Art/Hero.psd", owner: "bob" }] };
    for (const ref of ["refs/heads/main", "refs/heads/topic"]) {
      expect(
        await evaluateRefUpdate(policy, update(ref), facts({ files: ["a.txt", "art/hero.psd"] })),
      ).toEqual({
        allowed: false,
        message: "file art/hero.psd is locked by bob",
      });
      // A new branch too: its changes count from where it forks off.
      expect(
        await evaluateRefUpdate(policy, update(ref, ZERO_SHA, B), facts({ files: ["Art/Hero.psd"] })),
      ).toMatchObject({ allowed: false });
    }
    const f = facts({ files: ["Art/Hero.psd"] });
    // Other files, deletions of branches and tags touch no locked file.
    expect(await evaluateRefUpdate(policy, update(), facts({ files: ["Art/Hero.psd.bak"] }))).toEqual({
      allowed: true,
    });
    expect(await evaluateRefUpdate(policy, update("refs/heads/main", A, ZERO_SHA), f)).toEqual({
      allowed: true,
    });
    expect(await evaluateRefUpdate(policy, update("refs/tags/v1"), f)).toEqual({ allowed: true });
    expect(f.asked).toEqual([]);
    // Without locks no file list is computed.
    const none = facts({ files: ["Art/Hero.psd"] });
    expect(await evaluateRefUpdate({ branchRules: [] }, update(), none)).toEqual({ allowed: true });
    expect(none.asked).toEqual([]);
  });

  it("applies glob rules to matching branches", async () => {
    const policy = { branchRules: [rule({ ruleName: "release/*", canPush: false })] };
    expect(await evaluateRefUpdate(policy, update("refs/heads/release/v1"), facts())).toMatchObject({
      allowed: false,
    });
    expect(await evaluateRefUpdate(policy, update("refs/heads/feature/v1"), facts())).toEqual({
      allowed: true,
    });
  });
});

describe("evaluatePush", () => {
  it("reports one message per refused update", async () => {
    const policy = { branchRules: [rule({ ruleName: "*", canPush: false })] };
    const messages = await evaluatePush(
      policy,
      [update("refs/heads/a"), update("refs/tags/v1"), update("refs/heads/b")],
      facts(),
    );
    expect(messages).toEqual([
      "Not allowed to push to protected branch a",
      "Not allowed to push to protected branch b",
    ]);
  });

  it("says Quota exceeded once for a push of several refs", async () => {
    const policy = { branchRules: [], quotaExceeded: true };
    const refs = [update("refs/heads/a"), update("refs/tags/v1"), update("refs/heads/b", A, ZERO_SHA)];
    expect(await evaluatePush(policy, refs, facts())).toEqual(["Quota exceeded"]);
  });
});
