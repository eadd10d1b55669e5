import type { AccessMode, ProtectedBranchSettings, User } from "@kiln/domain";
import { REPO_UNITS, type RepoUnit } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { mayMerge, mayPush, type PusherFacts } from "./branch-rules.js";
import { mayCancelAutoMerge, mayDeleteHeadBranch, mayForceMerge } from "./merge-rules.js";

const caller = (mode: AccessMode, viewer: User | null) => ({
  permission: {
    mode,
    units: Object.fromEntries(REPO_UNITS.map((u) => [u, mode])) as Record<RepoUnit, AccessMode>,
  },
  viewer,
});
const user = (id: number, isAdmin = false) => ({ id, isAdmin }) as User;
const settings = (over: Partial<ProtectedBranchSettings>) => over as ProtectedBranchSettings;
const facts = (over: Partial<PusherFacts> = {}): PusherFacts => ({
  userId: 2,
  canWriteCode: true,
  teamIds: new Set(),
  ...over,
});

describe("mayPush / mayMerge", () => {
  it("need write access on an unprotected branch", () => {
    expect(mayPush(undefined, facts())).toBe(true);
    expect(mayMerge(undefined, facts({ canWriteCode: false }))).toBe(false);
  });

  it("follow the rule's whitelists, by user or by team", () => {
    const rule = settings({
      canPush: true,
      enableWhitelist: true,
      whitelistUserIds: [7],
      whitelistTeamIds: [],
      enableMergeWhitelist: true,
      mergeWhitelistUserIds: [],
      mergeWhitelistTeamIds: [4],
    });
    expect(mayPush(rule, facts())).toBe(false);
    expect(mayPush(rule, facts({ userId: 7 }))).toBe(true);
    expect(mayMerge(rule, facts())).toBe(false);
    expect(mayMerge(rule, facts({ teamIds: new Set([4]) }))).toBe(true);
  });

  it("let nobody push when the rule disables pushing", () => {
    expect(mayPush(settings({ canPush: false }), facts())).toBe(false);
  });
});

describe("mayForceMerge", () => {
  it("lets site admins always, and repository admins unless the rule applies to admins", () => {
    expect(mayForceMerge(caller("read", user(9, true)), settings({ applyToAdmins: true }))).toBe(true);
    expect(mayForceMerge(caller("admin", user(2)), settings({ applyToAdmins: false }))).toBe(true);
    expect(mayForceMerge(caller("admin", user(2)), settings({ applyToAdmins: true }))).toBe(false);
    expect(mayForceMerge(caller("write", user(2)), undefined)).toBe(false);
  });
});

describe("mayCancelAutoMerge", () => {
  it("lets the scheduler, repository admins and site admins cancel", () => {
    expect(mayCancelAutoMerge(caller("write", user(2)), 2)).toBe(true);
    expect(mayCancelAutoMerge(caller("write", user(2)), 3)).toBe(false);
    expect(mayCancelAutoMerge(caller("admin", user(2)), 3)).toBe(true);
    expect(mayCancelAutoMerge(caller("read", user(9, true)), 3)).toBe(true);
    expect(mayCancelAutoMerge(caller("admin", null), 3)).toBe(false);
  });
});

describe("mayDeleteHeadBranch", () => {
  it("needs write access to the head repository's code, or a site admin", () => {
    expect(mayDeleteHeadBranch(caller("write", user(2)))).toBe(true);
    expect(mayDeleteHeadBranch(caller("read", user(2)))).toBe(false);
    expect(mayDeleteHeadBranch(caller("read", user(9, true)))).toBe(true);
  });
});
