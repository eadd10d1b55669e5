import { DEFAULT_PROTECTED_BRANCH_SETTINGS } from "@kiln/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { branchRename, protectedBranches, protectedTags, repositories, users } from "./index.js";

describe.each(DIALECTS)("protected tags and branch renames on %s", (dialect) => {
  let t: TestDatabase;
  let repoId: number;
  let otherRepoId: number;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("owner");
    const owner = await users.insertUser(t.db, { name, lowerName: name });
    const make = (repo: string) =>
      repositories.insertRepository(t.db, {
        ownerId: owner.id,
        ownerName: owner.name,
        name: repo,
        lowerName: repo,
        defaultBranch: "main",
      });
    repoId = (await make("r")).id;
    otherRepoId = (await make("o")).id;
  });
  afterAll(() => t?.close());

  it("stores rules with their allowlists, per repository, and finds them by id and pattern", async () => {
    const rule = await protectedTags.insertProtectedTag(t.db, repoId, {
      namePattern: "v*",
      allowlistUserIds: [3, 5],
      allowlistTeamIds: [7],
    });
    expect(rule).toMatchObject({
      repoId,
      namePattern: "v*",
      allowlistUserIds: [3, 5],
      allowlistTeamIds: [7],
    });
    await protectedTags.insertProtectedTag(t.db, repoId, {
      namePattern: "r-*",
      allowlistUserIds: [],
      allowlistTeamIds: [],
    });
    expect((await protectedTags.listProtectedTags(t.db, repoId)).map((r) => r.namePattern)).toEqual([
      "v*",
      "r-*",
    ]);
    expect(await protectedTags.findProtectedTag(t.db, otherRepoId, rule.id)).toBeUndefined();
    expect((await protectedTags.findProtectedTagByPattern(t.db, repoId, "v*"))?.id).toBe(rule.id);

    const edited = await protectedTags.updateProtectedTag(t.db, repoId, rule.id, {
      namePattern: "v1.*",
      allowlistUserIds: [9],
      allowlistTeamIds: [],
    });
    expect(edited).toMatchObject({ namePattern: "v1.*", allowlistUserIds: [9], allowlistTeamIds: [] });
    expect(
      await protectedTags.updateProtectedTag(t.db, otherRepoId, rule.id, edited as never),
    ).toBeUndefined();
    expect(await protectedTags.deleteProtectedTag(t.db, otherRepoId, rule.id)).toBe(false);
    expect(await protectedTags.deleteProtectedTag(t.db, repoId, rule.id)).toBe(true);
    expect(await protectedTags.findProtectedTag(t.db, repoId, rule.id)).toBeUndefined();
  });

  it("renames the rule named like a branch and the default branch in one call", async () => {
    await protectedBranches.insertProtectedBranch(t.db, repoId, "main", DEFAULT_PROTECTED_BRANCH_SETTINGS);
    await t.db
      .transaction()
      .execute((trx) => branchRename.renameBranchRows(trx, repoId, "main", "trunk", true));
    expect(await protectedBranches.findProtectedBranch(t.db, repoId, "main")).toBeUndefined();
    expect(await protectedBranches.findProtectedBranch(t.db, repoId, "trunk")).toBeDefined();
    expect((await repositories.findRepositoryById(t.db, repoId))?.defaultBranch).toBe("trunk");
  });
});
