import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { gitPushSizeFacts, type PushSizeFacts, pushLimitRefusals } from "./push-limits.js";
import { ZERO_SHA } from "./push-policy.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

function facts(refs: number, files: Record<string, number>): PushSizeFacts & { counted: string[] } {
  const counted: string[] = [];
  return {
    counted,
    refCount: async () => refs,
    treesOf: async (shas) => shas.map((sha) => `tree-of-${sha}`),
    fileCount: async (tree, stop) => {
      counted.push(tree);
      return Math.min(files[tree] ?? 0, stop);
    },
  };
}

describe("push limits", () => {
  it("refuse a push that would leave more refs than MAX_REFS, counting creations and deletions", async () => {
    const create = (i: number) => ({ oldSha: ZERO_SHA, newSha: A, ref: `refs/heads/b${i}` });
    const updates = [create(1), create(2), { oldSha: A, newSha: ZERO_SHA, ref: "refs/heads/old" }];
    expect(await pushLimitRefusals({ maxRefs: 10 }, updates, facts(9, {}))).toEqual([]);
    expect(await pushLimitRefusals({ maxRefs: 10 }, updates, facts(10, {}))).toEqual([
      "push refused: the repository would hold 11 refs, more than [repository] MAX_REFS (10)",
    ]);
    // No creation: a repository over the limit may still move and delete refs.
    const move = [{ oldSha: A, newSha: B, ref: "refs/heads/main" }];
    expect(await pushLimitRefusals({ maxRefs: 10 }, move, facts(50, {}))).toEqual([]);
  });

  it("refuse a pushed tree with more files than MAX_FILES, counting each tree once", async () => {
    const updates = [
      { oldSha: A, newSha: B, ref: "refs/heads/main" },
      { oldSha: ZERO_SHA, newSha: B, ref: "refs/heads/copy" },
      { oldSha: A, newSha: ZERO_SHA, ref: "refs/heads/gone" },
    ];
    const big = facts(3, { [`tree-of-${B}`]: 1_000_000 });
    expect(await pushLimitRefusals({ maxFiles: 100 }, updates, big)).toEqual([
      "push refused: refs/heads/main holds more than [repository] MAX_FILES (100) files",
    ]);
    expect(big.counted).toEqual([`tree-of-${B}`]);
    expect(await pushLimitRefusals({ maxFiles: 100 }, updates, facts(3, {}))).toEqual([]);
    expect(await pushLimitRefusals(undefined, updates, big)).toEqual([]);
  });

  it("count the files of a lone pushed object through its own id, without peeling it first", async () => {
    const lone = facts(3, { [B]: 1_000_000 });
    lone.treesOf = async () => {
      throw new Error("a lone update needs no peeling");
    };
    expect(
      await pushLimitRefusals({ maxFiles: 100 }, [{ oldSha: A, newSha: B, ref: "refs/heads/main" }], lone),
    ).toEqual(["push refused: refs/heads/main holds more than [repository] MAX_FILES (100) files"]);
    expect(lone.counted).toEqual([B]);
  });

  describe("counted by git", () => {
    let fx: FixtureRepo;
    beforeAll(async () => {
      fx = await fixtureRepo();
    });
    afterAll(() => fx.cleanup());

    it("counts refs, peels to trees and stops counting files at the limit", async () => {
      const git = gitPushSizeFacts(fx.repo.gitdir);
      expect(await git.refCount()).toBe(4);
      const [tree, none] = await git.treesOf([fx.shas.three, `${"0".repeat(39)}1`]);
      expect(tree).toMatch(/^[0-9a-f]{40}$/);
      expect(none).toBeUndefined();
      // README.md, src/index.ts, run.sh, link, vendor/lib.js, Dockerfile, .gitmodules, ext.
      expect(await git.fileCount(tree as string, 100)).toBe(8);
      expect(await git.fileCount(tree as string, 3)).toBe(3);
      // A commit counts as its tree; an object without a tree counts nothing.
      expect(await git.fileCount(fx.shas.three, 100)).toBe(8);
      expect(await git.fileCount(`${"0".repeat(39)}1`, 100)).toBe(0);
    });
  });
});
