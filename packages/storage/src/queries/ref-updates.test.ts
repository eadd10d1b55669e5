import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { refUpdates, repositories, users } from "./index.js";

const A = "a".repeat(40);
const B = "b".repeat(40);

describe.each(DIALECTS)("the ref-move journal on %s", (dialect) => {
  let t: TestDatabase;
  let repo: number;
  let alice: number;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("u");
    alice = (await users.insertUser(t.db, { name, lowerName: name })).id;
    const repoName = uniqueName("r");
    repo = (
      await repositories.insertRepository(t.db, {
        ownerId: alice,
        ownerName: name,
        name: repoName,
        lowerName: repoName,
      })
    ).id;
  });
  afterAll(() => t?.close());

  const intent = (operation: string, ref: string) => ({
    operation,
    repoId: repo,
    ref,
    oldSha: A,
    newSha: B,
    kind: "push",
    doerId: alice,
  });

  it("keeps an operation's moves until one transaction claims them, and only one", async () => {
    const op = uniqueName("op");
    await refUpdates.insertIntents(t.db, [intent(op, "refs/heads/main"), intent(op, "refs/tags/v1")]);
    const listed = await refUpdates.intentsOf(t.db, op);
    expect(listed.map((i) => [i.ref, i.oldSha, i.newSha, i.doerId, i.pullId, i.detail])).toEqual([
      ["refs/heads/main", A, B, alice, null, "{}"],
      ["refs/tags/v1", A, B, alice, null, "{}"],
    ]);
    expect(typeof listed[0]?.repoId).toBe("number");
    const claims = await Promise.all([
      t.db.transaction().execute((trx) => refUpdates.claimOperation(trx, op)),
      t.db.transaction().execute((trx) => refUpdates.claimOperation(trx, op)),
    ]);
    expect(claims.sort()).toEqual([0, 2]);
    expect(await refUpdates.intentsOf(t.db, op)).toEqual([]);
  });

  it("lists the moves announced before a time, for reconciliation", async () => {
    const op = uniqueName("op");
    await refUpdates.insertIntents(t.db, [intent(op, "refs/heads/old")]);
    const later = new Date(Date.now() + 60_000);
    expect((await refUpdates.intentsBefore(t.db, later)).map((i) => i.operation)).toContain(op);
    const earlier = new Date(Date.now() - 60_000);
    expect((await refUpdates.intentsBefore(t.db, earlier)).map((i) => i.operation)).not.toContain(op);
  });
});
