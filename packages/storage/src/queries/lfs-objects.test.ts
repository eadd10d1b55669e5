import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { collaborations, lfsObjects, type RepoViewer, repositories, users } from "./index.js";

const oid = (n: number) => n.toString(16).padStart(64, "0");

describe.each(DIALECTS)("LFS object references on %s", (dialect) => {
  let t: TestDatabase;
  let owner: NonNullable<RepoViewer>;
  let outsider: NonNullable<RepoViewer>;
  let collaborator: NonNullable<RepoViewer>;
  let privateRepo: number;
  let publicRepo: number;
  let outsiderRepo: number;

  const viewer = (id: number, extra: Partial<NonNullable<RepoViewer>> = {}): NonNullable<RepoViewer> => ({
    id,
    isAdmin: false,
    isRestricted: false,
    publicOnly: false,
    ...extra,
  });
  const user = async () => {
    const name = uniqueName("u");
    return (await users.insertUser(t.db, { name, lowerName: name })).id;
  };
  const repo = async (ownerId: number, isPrivate: boolean) => {
    const name = uniqueName("r");
    const ownerName = (await users.findUserById(t.db, ownerId))!.name;
    return (
      await repositories.insertRepository(t.db, { ownerId, ownerName, name, lowerName: name, isPrivate })
    ).id;
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    owner = viewer(await user());
    outsider = viewer(await user());
    collaborator = viewer(await user());
    privateRepo = await repo(owner.id, true);
    publicRepo = await repo(owner.id, false);
    outsiderRepo = await repo(outsider.id, false);
    await collaborations.upsertCollaborator(t.db, privateRepo, collaborator.id, "read");
    expect(await lfsObjects.addLfsObject(t.db, privateRepo, oid(1), 10)).toBe(true);
    expect(await lfsObjects.addLfsObject(t.db, privateRepo, oid(1), 10)).toBe(false);
    await lfsObjects.addLfsObject(t.db, publicRepo, oid(2), 20);
  });
  afterAll(() => t?.close());

  it("lists only the references of the repository asked about", async () => {
    expect(await lfsObjects.lfsObjectsOf(t.db, privateRepo, [oid(1), oid(2)])).toEqual(
      new Map([[oid(1), 10]]),
    );
    expect(await lfsObjects.lfsObjectsOf(t.db, outsiderRepo, [oid(1), oid(2)])).toEqual(new Map());
    expect(await lfsObjects.findLfsObject(t.db, outsiderRepo, oid(1))).toBeUndefined();
  });

  it("says an object is visible only to who can see a repository holding it, with that size", async () => {
    const visible = (v: RepoViewer, n: number, size: number) =>
      lfsObjects.lfsObjectVisibleTo(t.db, v, oid(n), size);
    expect(await visible(owner, 1, 10)).toBe(true);
    expect(await visible(collaborator, 1, 10)).toBe(true);
    expect(await visible(outsider, 1, 10)).toBe(false);
    expect(await visible(null, 1, 10)).toBe(false);
    expect(await visible(viewer(outsider.id, { isAdmin: true }), 1, 10)).toBe(true);
    expect(await visible(owner, 1, 11)).toBe(false);
    expect(await visible(owner, 3, 10)).toBe(false);
    // Public repositories: everyone, but not restricted users nor, for a private one, public-only tokens.
    expect(await visible(outsider, 2, 20)).toBe(true);
    expect(await visible(null, 2, 20)).toBe(true);
    expect(await visible(viewer(outsider.id, { isRestricted: true }), 2, 20)).toBe(false);
    expect(await visible(viewer(owner.id, { publicOnly: true }), 2, 20)).toBe(true);
    expect(await visible(viewer(owner.id, { publicOnly: true }), 1, 10)).toBe(false);
  });

  it("knows which objects any repository references, and their distinct total", async () => {
    expect(await lfsObjects.referencedLfsOids(t.db, [oid(1), oid(2), oid(3)])).toEqual(
      new Set([oid(1), oid(2)]),
    );
    expect(await lfsObjects.referencedLfsOids(t.db, [])).toEqual(new Set());
    // A second reference to an object stores nothing more.
    const shared = await repo(outsider.id, false);
    await lfsObjects.addLfsObject(t.db, shared, oid(2), 20);
    expect(await lfsObjects.referencedLfsTotal(t.db)).toEqual({ objects: 2, bytes: 30 });
    expect(await lfsObjects.sumLfsSize(t.db, shared)).toBe(20);
  });
});
