import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../errors.js";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { quotaGroups, quotaRules, users } from "./index.js";

describe.each(DIALECTS)("quota rules and groups on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  it("stores a rule's subjects in the spelling given, and refuses a taken name", async () => {
    const name = uniqueName("rule");
    const rule = await quotaRules.insertRule(t.db, {
      name,
      limit: 3 * 1024 ** 3,
      subjects: ["sizelfs", "size:git:lfs", "size:assets:packages:all"],
    });
    expect(rule).toMatchObject({ name, limit: 3 * 1024 ** 3 });
    expect(await quotaRules.findRuleByName(t.db, name)).toEqual(rule);
    expect(rule.subjects).toEqual(["sizelfs", "size:git:lfs", "size:assets:packages:all"]);
    expect(await quotaRules.findRuleByName(t.db, name.toUpperCase())).toBeUndefined();
    const err = await quotaRules.insertRule(t.db, { name, limit: 0, subjects: [] }).catch((e: unknown) => e);
    expect(isUniqueViolation(err, "quota_rule_name_key")).toBe(true);
  });

  it("edits only what is given", async () => {
    const rule = await quotaRules.insertRule(t.db, {
      name: uniqueName("r"),
      limit: 0,
      subjects: ["size:all"],
    });
    expect(await quotaRules.updateRule(t.db, rule.id, { limit: 1024 })).toMatchObject({
      limit: 1024,
      subjects: ["size:all"],
    });
    expect(await quotaRules.updateRule(t.db, rule.id, { subjects: [] })).toMatchObject({
      limit: 1024,
      subjects: [],
    });
    expect(await quotaRules.updateRule(t.db, rule.id, {})).toMatchObject({ limit: 1024 });
    expect(await quotaRules.updateRule(t.db, -1, { limit: 1 })).toBeUndefined();
  });

  it("loads groups with their rules in the order added; deleting a rule or group removes its mappings", async () => {
    const owner = await users.insertUser(t.db, { name: uniqueName("o"), lowerName: uniqueName("o") });
    const g = await quotaGroups.insertGroup(t.db, uniqueName("g"));
    const empty = await quotaGroups.insertGroup(t.db, uniqueName("empty"));
    const b = await quotaRules.insertRule(t.db, { name: uniqueName("b"), limit: 2, subjects: ["size:all"] });
    const a = await quotaRules.insertRule(t.db, { name: uniqueName("a"), limit: 1, subjects: [] });
    expect(await quotaGroups.addRuleToGroup(t.db, g.id, b.id)).toBe(true);
    expect(await quotaGroups.addRuleToGroup(t.db, g.id, a.id)).toBe(true);
    expect(await quotaGroups.addRuleToGroup(t.db, g.id, a.id)).toBe(false);
    expect(await quotaGroups.addOwnerToGroup(t.db, g.id, owner.id)).toBe(true);
    expect(await quotaGroups.addOwnerToGroup(t.db, g.id, owner.id)).toBe(false);
    expect(await quotaGroups.addOwnerToGroup(t.db, empty.id, owner.id)).toBe(true);

    const loaded = await quotaGroups.loadGroups(t.db, { ownerId: owner.id });
    const byName = Object.fromEntries(loaded.map((x) => [x.name, x.rules.map((r) => r.name)]));
    expect(byName).toEqual({ [g.name]: [b.name, a.name], [empty.name]: [] });
    expect((await quotaGroups.loadGroups(t.db, { names: [g.name, "nope"] })).map((x) => x.name)).toEqual([
      g.name,
    ]);
    expect(await quotaGroups.loadGroups(t.db, { ids: [] })).toEqual([]);
    expect((await quotaGroups.ownersOfGroup(t.db, g.id)).map((u) => u.id)).toEqual([owner.id]);

    expect(await quotaRules.deleteRule(t.db, b.id)).toBe(true);
    expect((await quotaGroups.loadGroups(t.db, { ids: [g.id] }))[0]?.rules.map((r) => r.name)).toEqual([
      a.name,
    ]);
    expect(await quotaGroups.removeRuleFromGroup(t.db, g.id, a.id)).toBe(true);
    expect(await quotaGroups.removeRuleFromGroup(t.db, g.id, a.id)).toBe(false);

    await quotaGroups.setOwnerGroups(t.db, owner.id, [empty.id, empty.id]);
    expect((await quotaGroups.loadGroups(t.db, { ownerId: owner.id })).map((x) => x.name)).toEqual([
      empty.name,
    ]);
    expect(await quotaGroups.deleteGroup(t.db, empty.id)).toBe(true);
    expect(await quotaGroups.loadGroups(t.db, { ownerId: owner.id })).toEqual([]);
    expect(await quotaGroups.removeOwnerFromGroup(t.db, g.id, owner.id)).toBe(false);
  });
});
