import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { adminRepos, repositories, users } from "./index.js";

describe.each(DIALECTS)("walking every repository on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  it("counts the repositories and pages through their ids in order", async () => {
    expect(await adminRepos.countRepositories(t.db)).toBe(0);
    const name = uniqueName("u");
    const owner = await users.insertUser(t.db, { name, lowerName: name });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const repo = uniqueName("r");
      ids.push(
        (
          await repositories.insertRepository(t.db, {
            ownerId: owner.id,
            ownerName: name,
            name: repo,
            lowerName: repo,
          })
        ).id,
      );
    }
    expect(await adminRepos.countRepositories(t.db)).toBe(3);
    expect(await adminRepos.repositoryIdsAfter(t.db, 0, 2)).toEqual(ids.slice(0, 2));
    expect(await adminRepos.repositoryIdsAfter(t.db, ids[1]!, 2)).toEqual(ids.slice(2));
  });
});
