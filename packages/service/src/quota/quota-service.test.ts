import { PayloadTooLargeError, type User } from "@kiln/domain";
import { quotaUsage, repositories } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestServices } from "../../test/support.js";
import { createServices, type Services } from "../services.js";

describe.each(DIALECTS)("quota service on %s", (dialect) => {
  let s: Services;
  let withDefaults: Services;
  let close: () => Promise<void>;
  const defaultGroup = uniqueName("default");
  beforeAll(async () => {
    const opened = await openTestServices(dialect, {
      quota: { enabled: true, defaultGroups: ["missing-group", defaultGroup], defaultTotal: 4096 },
    });
    withDefaults = opened.services;
    // The same database seen by a server whose DEFAULT_GROUPS is empty.
    const { settings } = withDefaults.ctx;
    s = createServices({
      ...withDefaults.ctx,
      settings: { ...settings, quota: { ...settings.quota, defaultGroups: [] } },
    });
    close = () => opened.database.close();
  });
  afterAll(() => close?.());

  const user = async (): Promise<User> => {
    const name = uniqueName("u");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1" });
  };
  const addRepo = (owner: User, isPrivate: boolean, gitSize: number, lfsSize = 0) =>
    s.ctx.db.transaction().execute(async (trx) => {
      const name = uniqueName("r");
      const repo = await repositories.insertRepository(trx, {
        ownerId: owner.id,
        ownerName: owner.name,
        name,
        lowerName: name,
        isPrivate,
        gitSize,
        lfsSize,
      });
      await s.ledger.recordRepositoryChange(trx, undefined, repo);
    });

  it("reads usage from the ledger, counted per owner", async () => {
    const a = await user();
    const b = await user();
    await addRepo(a, false, 1000, 10);
    await addRepo(a, true, 300);
    expect(await s.quota.usage(a.id)).toMatchObject({
      reposPublic: 1000,
      reposPrivate: 300,
      lfs: 10,
      packages: 0,
    });
    expect(await s.quota.usage(b.id)).toEqual(quotaUsage.NO_USAGE);
  });

  it("counts a drifted negative counter as nothing", async () => {
    const a = await user();
    await quotaUsage.addUsage(s.ctx.db, a.id, { lfs: -5, reposPublic: 7 });
    expect(await s.quota.usage(a.id)).toMatchObject({ lfs: 0, reposPublic: 7 });
  });

  it("applies the built-in rule size:all < TOTAL when an owner has no group and no default group exists", async () => {
    const a = await user();
    const resolved = await s.quota.groupsFor(a.id);
    expect(resolved.source).toBe("builtin");
    expect(resolved.groups[0]!.rules[0]).toMatchObject({ limit: 4096, subjects: ["size:all"] });
    expect((await s.quota.info(a.id)).groups).toEqual([]);
    expect(await s.quota.check(a.id, "size:all")).toBe(true);
    await addRepo(a, false, 5000);
    expect(await s.quota.check(a.id, "size:all")).toBe(false);
    expect(await s.quota.check(a.id, "size:repos:private")).toBe(false);
    expect(await s.quota.check(a.id, "size:wiki")).toBe(true);
  });

  it("applies the existing DEFAULT_GROUPS to owners without groups, and assigned groups instead of them", async () => {
    const a = await user();
    await withDefaults.quotaAdmin.createGroup(defaultGroup, [
      { name: uniqueName("deny"), limit: 0, subjects: ["size:all"] },
    ]);
    const byDefault = await withDefaults.quota.groupsFor(a.id);
    expect(byDefault.source).toBe("default-groups");
    expect(byDefault.groups.map((g) => g.name)).toEqual([defaultGroup]);
    expect((await withDefaults.quota.info(a.id)).groups.map((g) => g.name)).toEqual([defaultGroup]);
    expect(await withDefaults.quota.check(a.id, "size:repos:all")).toBe(false);

    const own = uniqueName("own");
    await withDefaults.quotaAdmin.createGroup(own, [
      { name: uniqueName("free"), limit: -1, subjects: ["size:all"] },
    ]);
    await withDefaults.quotaAdmin.addOwnerToGroup(own, a.name);
    expect((await withDefaults.quota.groupsFor(a.id)).groups.map((g) => g.name)).toEqual([own]);
    expect(await withDefaults.quota.check(a.id, "size:repos:all")).toBe(true);
  });

  it("checks subjects as written, trims blanks, and answers 422 with Forgejo's message otherwise", async () => {
    const a = await user();
    const g = uniqueName("g");
    await s.quotaAdmin.createGroup(g, [{ name: uniqueName("lfs"), limit: 0, subjects: ["sizelfs"] }]);
    await s.quotaAdmin.addOwnerToGroup(g, a.name);
    expect(await s.quota.check(a.id, "size:git:lfs")).toBe(false);
    expect(await s.quota.check(a.id, " sizelfs ")).toBe(false);
    expect(await s.quota.check(a.id, "size:repos:all")).toBe(true);
    await expect(s.quota.check(a.id, "")).rejects.toMatchObject({
      kind: "invalid_argument",
      message: "unrecognized quota limit subject: [subject: ]",
    });
    await expect(s.quota.check(a.id, "size:everything")).rejects.toThrow(
      "unrecognized quota limit subject: [subject: size:everything]",
    );
  });

  it("never rejects in enforce(), even for an owner far over quota; an unknown subject is a bug", async () => {
    const a = await user();
    const g = uniqueName("deny");
    await s.quotaAdmin.createGroup(g, [{ name: uniqueName("deny"), limit: 0, subjects: ["size:all"] }]);
    await s.quotaAdmin.addOwnerToGroup(g, a.name);
    await addRepo(a, false, 1_000_000);
    expect(await s.quota.check(a.id, "size:repos:all")).toBe(false);
    await expect(s.quota.enforce(a, "size:repos:all")).resolves.toBeUndefined();
    await expect(s.quota.enforce(a, "size:git:all")).resolves.toBeUndefined();
    await expect(s.quota.enforce(a, "bogus" as never)).rejects.toThrow("unrecognized quota limit subject");
  });

  it("with [quota] ENFORCE, refuses an owner over quota for the subject with Forgejo's 413, and no one else", async () => {
    const { settings } = s.ctx;
    const enforcing = (quota: Partial<typeof settings.quota>) =>
      createServices({ ...s.ctx, settings: { ...settings, quota: { ...settings.quota, ...quota } } }).quota;
    const on = enforcing({ enforce: true });
    const a = await user();
    const g = uniqueName("repos");
    await s.quotaAdmin.createGroup(g, [
      { name: uniqueName("repos"), limit: 1000, subjects: ["size:repos:all"] },
    ]);
    await s.quotaAdmin.addOwnerToGroup(g, a.name);
    await addRepo(a, false, 999);
    // Within quota (999 < 1000): nothing is refused.
    await expect(on.enforce(a, "size:repos:all")).resolves.toBeUndefined();
    await addRepo(a, true, 1);
    const refusal = on.enforce(a, "size:repos:all");
    await expect(refusal).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(refusal).rejects.toMatchObject({
      kind: "payload_too_large",
      message: "quota exceeded",
      details: { user_id: a.id, username: a.name },
    });
    expect(await on.exceeds(a, "size:all")).toBe(true);
    // No rule of the group applies to LFS or packages, so those writes go on (decision 3, docs/decisions.md).
    expect(await on.exceeds(a, "size:git:lfs")).toBe(false);
    await expect(on.enforce(a, "size:assets:packages:all")).resolves.toBeUndefined();
    // The wiki is never over quota; ENFORCE off, or quota disabled, refuses nothing.
    expect(await on.exceeds(a, "size:wiki")).toBe(false);
    expect(await enforcing({ enforce: false }).exceeds(a, "size:repos:all")).toBe(false);
    expect(await enforcing({ enforce: true, enabled: false }).exceeds(a, "size:repos:all")).toBe(false);
    await expect(on.enforce(a, "bogus" as never)).rejects.toThrow("unrecognized quota limit subject");
  });

  it("lists no attachments, packages or artifacts until their feature registers a lister", async () => {
    const a = await user();
    const page = { page: 1, limit: 30 };
    expect(await s.quota.listUsedAttachments(a.id, page)).toEqual({ items: [], total: 0 });
    expect(await s.quota.listUsedPackages(a.id, page)).toEqual({ items: [], total: 0 });
    expect(await s.quota.listUsedArtifacts(a.id, page)).toEqual({ items: [], total: 0 });
    const asked: unknown[] = [];
    s.quota.registerUsedItems("packages", async (ownerId, p) => {
      asked.push([ownerId, p]);
      return { items: [{ name: "p", type: "Generic", version: "1", size: 3, htmlPath: "x" }], total: 1 };
    });
    expect((await s.quota.listUsedPackages(a.id, page)).total).toBe(1);
    expect(asked).toEqual([[a.id, page]]);
  });
});
