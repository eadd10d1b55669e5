import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

describe.each(DIALECTS)("quota administration on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  it("creates a group with its rules in one transaction: a bad subject leaves nothing behind", async () => {
    const group = uniqueName("g");
    const first = uniqueName("created-first");
    await expect(
      s.quotaAdmin.createGroup(group, [
        { name: first, limit: 5, subjects: ["size:all"] },
        { name: uniqueName("bad"), subjects: ["valid:false"] },
      ]),
    ).rejects.toMatchObject({
      kind: "invalid_argument",
      message: "unrecognized quota limit subject: [subject: valid:false]",
    });
    await expect(s.quotaAdmin.getGroup(group)).rejects.toMatchObject({ kind: "not_found" });
    await expect(s.quotaAdmin.getRule(first)).rejects.toMatchObject({ kind: "not_found" });
  });

  it("attaches existing rules as they are and creates missing ones with limit 0 by default", async () => {
    const existing = uniqueName("existing");
    await s.quotaAdmin.createRule({ name: existing, limit: 7, subjects: ["sizeall"] });
    const fresh = uniqueName("fresh");
    const group = await s.quotaAdmin.createGroup(uniqueName("g"), [
      { name: existing, limit: -1, subjects: ["size:wiki"] },
      { name: fresh, subjects: ["size:assets:all"] },
      { name: existing },
    ]);
    expect(group.rules).toEqual([
      { name: existing, limit: 7, subjects: ["sizeall"] },
      { name: fresh, limit: 0, subjects: ["size:assets:all"] },
    ]);
  });

  it("replaces an owner's groups, refusing the whole set when one group is unknown", async () => {
    const name = uniqueName("u");
    const user = await s.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    const [a, b] = [uniqueName("a"), uniqueName("b")];
    await s.quotaAdmin.createGroup(a);
    await s.quotaAdmin.createGroup(b);
    await s.quotaAdmin.setOwnerGroups(user, [a, b, a]);
    expect((await s.quota.info(user.id)).groups.map((g) => g.name).sort()).toEqual([a, b].sort());
    await expect(s.quotaAdmin.setOwnerGroups(user, [b, "no-such-group"])).rejects.toMatchObject({
      kind: "invalid_argument",
      message: "group not found: [group: no-such-group]",
    });
    expect((await s.quota.info(user.id)).groups).toHaveLength(2);
    await s.quotaAdmin.setOwnerGroups(user, null);
    expect((await s.quota.info(user.id)).groups).toHaveLength(2);
    await s.quotaAdmin.setOwnerGroups(user, [b]);
    expect((await s.quota.info(user.id)).groups.map((g) => g.name)).toEqual([b]);
    await s.quotaAdmin.setOwnerGroups(user, []);
    expect((await s.quota.info(user.id)).groups).toEqual([]);
  });
});
