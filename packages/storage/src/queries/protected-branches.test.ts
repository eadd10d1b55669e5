import { DEFAULT_PROTECTED_BRANCH_SETTINGS } from "@kiln/domain";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../errors.js";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { protectedBranches, repositories, users } from "./index.js";

describe.each(DIALECTS)("protected branches on %s", (dialect) => {
  let t: TestDatabase;
  let repoId: number;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("owner");
    const owner = await users.insertUser(t.db, { name, lowerName: name });
    const repo = await repositories.insertRepository(t.db, {
      ownerId: owner.id,
      ownerName: owner.name,
      name: "r",
      lowerName: "r",
      defaultBranch: "main",
    });
    repoId = repo.id;
  });
  afterAll(() => t?.close());

  it("stores rules with their settings, lists them in creation order and finds them by exact name", async () => {
    const main = await protectedBranches.insertProtectedBranch(t.db, repoId, "main", {
      ...DEFAULT_PROTECTED_BRANCH_SETTINGS,
      canPush: true,
      enableWhitelist: true,
      whitelistUserIds: [3, 5],
      protectedFilePatterns: "*.lock",
    });
    const glob = await protectedBranches.insertProtectedBranch(
      t.db,
      repoId,
      "release/*",
      DEFAULT_PROTECTED_BRANCH_SETTINGS,
    );
    expect(glob.priority).toBe(main.priority + 1);
    expect(main.settings).toMatchObject({
      canPush: true,
      whitelistUserIds: [3, 5],
      protectedFilePatterns: "*.lock",
    });
    const listed = await protectedBranches.listProtectedBranches(t.db, repoId);
    expect(listed.map((r) => r.ruleName)).toEqual(["main", "release/*"]);
    expect(await protectedBranches.findProtectedBranch(t.db, repoId, "main")).toEqual(main);
    expect(await protectedBranches.findProtectedBranch(t.db, repoId, "Main")).toBeUndefined();
  });

  it("refuses a second rule of the same name as a unique violation", async () => {
    const err = await protectedBranches
      .insertProtectedBranch(t.db, repoId, "main", DEFAULT_PROTECTED_BRANCH_SETTINGS)
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });

  it("reads settings missing from an old row as Forgejo's defaults", async () => {
    await t.db
      .insertInto("protectedBranch")
      .values({ repoId, ruleName: "legacy", settings: JSON.stringify({ canPush: true }) })
      .execute();
    const legacy = await protectedBranches.findProtectedBranch(t.db, repoId, "legacy");
    expect(legacy?.settings).toEqual({ ...DEFAULT_PROTECTED_BRANCH_SETTINGS, canPush: true });
  });

  it("replaces settings, moving updated_at, and deletes by name", async () => {
    await t.db
      .updateTable("protectedBranch")
      .set({ updatedAt: sql<Date>`now() - interval '1 hour'` })
      .where("ruleName", "=", "release/*")
      .execute();
    const before = await protectedBranches.findProtectedBranch(t.db, repoId, "release/*");
    if (!before) throw new Error("missing rule");
    const after = await protectedBranches.updateProtectedBranch(t.db, before.id, {
      ...before.settings,
      requireSignedCommits: true,
    });
    expect(after?.settings.requireSignedCommits).toBe(true);
    expect(after?.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime() + 1_800_000);
    expect(await protectedBranches.deleteProtectedBranch(t.db, repoId, "release/*")).toBe(true);
    expect(await protectedBranches.deleteProtectedBranch(t.db, repoId, "release/*")).toBe(false);
    expect(await protectedBranches.updateProtectedBranch(t.db, before.id, before.settings)).toBeUndefined();
  });
});
