import { describe, expect, it } from "vitest";
import { parsePushPolicy, parseRefUpdateLines } from "./parse-push.js";

describe("parseRefUpdateLines", () => {
  it("reads old, new and ref per line and skips junk", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    expect(parseRefUpdateLines(`${a} ${b} refs/heads/main\nnonsense\n\n${b} ${a} refs/tags/v1\n`)).toEqual([
      { oldSha: a, newSha: b, ref: "refs/heads/main" },
      { oldSha: b, newSha: a, ref: "refs/tags/v1" },
    ]);
  });
});

describe("parsePushPolicy", () => {
  it("fills missing permissions with 'not allowed'", () => {
    const policy = parsePushPolicy(
      JSON.stringify({ branchRules: [{ ruleName: "main", canPush: true }, { nope: 1 }] }),
    );
    expect(policy.branchRules).toEqual([
      {
        ruleName: "main",
        canPush: true,
        canForcePush: false,
        canDelete: false,
        requireSignedCommits: false,
        protectedFilePatterns: "",
        unprotectedFilePatterns: "",
        canChangeProtectedFiles: false,
      },
    ]);
  });

  it("keeps the branches a limited pusher may update, an empty list included", () => {
    expect(
      parsePushPolicy(JSON.stringify({ branchRules: [], onlyBranches: ["a", 1, "b"] })).onlyBranches,
    ).toEqual(["a", "b"]);
    expect(parsePushPolicy(JSON.stringify({ branchRules: [], onlyBranches: [] })).onlyBranches).toEqual([]);
    expect(parsePushPolicy(JSON.stringify({ branchRules: [] })).onlyBranches).toBeUndefined();
  });

  it("keeps priority, id and the default branch", () => {
    const policy = parsePushPolicy(
      JSON.stringify({ defaultBranch: "main", branchRules: [{ ruleName: "*", priority: 2, id: 7 }] }),
    );
    expect(policy.defaultBranch).toBe("main");
    expect(policy.branchRules[0]).toMatchObject({ priority: 2, id: 7 });
  });

  it("reads the quota verdict, absent unless exactly true", () => {
    expect(parsePushPolicy(JSON.stringify({ branchRules: [], quotaExceeded: true })).quotaExceeded).toBe(
      true,
    );
    expect(parsePushPolicy(JSON.stringify({ quotaExceeded: "yes" }))).toEqual({ branchRules: [] });
    expect(parsePushPolicy("{}")).toEqual({ branchRules: [] });
  });

  it("reads Git LFS locks held by others, skipping entries without a path", () => {
    const policy = parsePushPolicy(
      JSON.stringify({ lfsLocks: [{ path: "a.psd", owner: "bob" }, { owner: "x" }, 3, { path: "b" }] }),
    );
    expect(policy.lfsLocks).toEqual([
      { path: "a.psd", owner: "bob" },
      { path: "b", owner: "" },
    ]);
    expect(parsePushPolicy(JSON.stringify({ lfsLocks: [] }))).toEqual({ branchRules: [] });
  });

  it("throws on JSON that is not an object", () => {
    expect(() => parsePushPolicy("42")).toThrow();
    expect(() => parsePushPolicy("{")).toThrow();
  });
});
