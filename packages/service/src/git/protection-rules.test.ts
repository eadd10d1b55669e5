import { DEFAULT_PROTECTED_BRANCH_SETTINGS as DEFAULTS, type ProtectedBranch } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import {
  mayMerge,
  mayPush,
  type PusherFacts,
  settingsForCreate,
  settingsForEdit,
  toBranchRulePolicy,
} from "./protection-rules.js";

const writer: PusherFacts = { userId: 7, canWriteCode: true, teamIds: new Set([40]) };
const reader: PusherFacts = { userId: 8, canWriteCode: false, teamIds: new Set() };

describe("who may push to a protected branch (Forgejo's CanUserPush)", () => {
  it.each([
    ["push disabled", { canPush: false }, writer, false],
    ["push enabled, no whitelist, write access", { canPush: true }, writer, true],
    ["push enabled, no whitelist, read access only", { canPush: true }, reader, false],
    [
      "whitelist without the user",
      { canPush: true, enableWhitelist: true, whitelistUserIds: [1] },
      writer,
      false,
    ],
    ["whitelisted user", { canPush: true, enableWhitelist: true, whitelistUserIds: [7] }, writer, true],
    [
      "member of a whitelisted team",
      { canPush: true, enableWhitelist: true, whitelistTeamIds: [40] },
      writer,
      true,
    ],
    ["whitelist ignored while push is disabled", { canPush: false, whitelistUserIds: [7] }, writer, false],
  ] as const)("%s", (_name, settings, facts, expected) => {
    expect(mayPush({ ...DEFAULTS, ...settings }, facts)).toBe(expected);
  });
});

describe("who may merge (Forgejo's IsUserMergeWhitelisted)", () => {
  it("falls back to write access without a merge whitelist, else asks the whitelist", () => {
    expect(mayMerge(DEFAULTS, writer)).toBe(true);
    expect(mayMerge(DEFAULTS, reader)).toBe(false);
    const whitelist = { ...DEFAULTS, enableMergeWhitelist: true, mergeWhitelistTeamIds: [40] };
    expect(mayMerge(whitelist, writer)).toBe(true);
    expect(mayMerge({ ...whitelist, mergeWhitelistUserIds: [8] }, reader)).toBe(true);
    expect(mayMerge({ ...whitelist, mergeWhitelistTeamIds: [] }, writer)).toBe(false);
  });
});

describe("the push policy of a rule", () => {
  it("never lets anyone force-push, delete or change protected files by push", () => {
    const rule: ProtectedBranch = {
      id: 3,
      repoId: 1,
      ruleName: "release/*",
      priority: 2,
      settings: { ...DEFAULTS, canPush: true, requireSignedCommits: true, protectedFilePatterns: "*.lock" },
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    expect(toBranchRulePolicy(rule, writer)).toEqual({
      ruleName: "release/*",
      priority: 2,
      id: 3,
      canPush: true,
      canForcePush: false,
      canDelete: false,
      requireSignedCommits: true,
      protectedFilePatterns: "*.lock",
      unprotectedFilePatterns: "",
      canChangeProtectedFiles: false,
    });
    expect(toBranchRulePolicy(rule, reader).canPush).toBe(false);
  });
});

describe("settings from API options", () => {
  it("creates like Forgejo: a push whitelist only with push enabled, approvals never negative", () => {
    const off = settingsForCreate(
      { enablePush: false, enablePushWhitelist: true, requiredApprovals: -2 },
      {},
    );
    expect(off).toMatchObject({ canPush: false, enableWhitelist: false, requiredApprovals: 0 });
    const on = settingsForCreate(
      {
        enablePush: true,
        enablePushWhitelist: true,
        pushWhitelistDeployKeys: true,
        blockOnRejectedReviews: true,
      },
      { pushUserIds: [7], pushTeamIds: [40] },
    );
    expect(on).toMatchObject({
      canPush: true,
      enableWhitelist: true,
      whitelistDeployKeys: true,
      whitelistUserIds: [7],
      whitelistTeamIds: [40],
      blockOnRejectedReviews: true,
      dismissStaleApprovals: false,
    });
  });

  it("edits only what is set; disabling push clears its whitelist switch but keeps the lists", () => {
    const current = settingsForCreate(
      { enablePush: true, enablePushWhitelist: true, requiredApprovals: 2, protectedFilePatterns: "a" },
      { pushUserIds: [7] },
    );
    expect(settingsForEdit(current, { dismissStaleApprovals: true }, {})).toEqual({
      ...current,
      dismissStaleApprovals: true,
    });
    const disabled = settingsForEdit(current, { enablePush: false }, {});
    expect(disabled).toMatchObject({ canPush: false, enableWhitelist: false, whitelistUserIds: [7] });
    const edited = settingsForEdit(
      current,
      { requiredApprovals: -1, protectedFilePatterns: "", enablePush: true, enablePushWhitelist: false },
      { pushUserIds: [] },
    );
    expect(edited).toMatchObject({
      requiredApprovals: 2,
      protectedFilePatterns: "",
      canPush: true,
      enableWhitelist: false,
      whitelistUserIds: [],
    });
  });
});
