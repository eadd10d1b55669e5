import { describe, expect, it } from "vitest";
import { caller, permission, user } from "../../test/rule-fixtures.js";
import {
  administersRepo,
  mayQueryPermissionOf,
  readsUnit,
  repoPermissionView,
  requireLockRemoval,
  requirePermissionQuery,
  seesBranchRuleNames,
  seesDeployKeyRepository,
  writesUnit,
} from "./repo-rules.js";

describe("repoPermissionView", () => {
  it("is Forgejo's permissions block: admin, push to code, pull code", () => {
    expect(repoPermissionView(permission("admin"))).toEqual({ admin: true, push: true, pull: true });
    expect(repoPermissionView(permission("write"))).toEqual({ admin: false, push: true, pull: true });
    expect(repoPermissionView(permission("read", { "repo.code": "none" }))).toEqual({
      admin: false,
      push: false,
      pull: false,
    });
  });
});

describe("administersRepo and the rules built on it", () => {
  it("holds for repository admins and site admins, not for writers", () => {
    expect(administersRepo(caller("admin"))).toBe(true);
    expect(administersRepo(caller("read", user(9, true)))).toBe(true);
    expect(administersRepo(caller("write"))).toBe(false);
    expect(seesBranchRuleNames(caller("owner"))).toBe(true);
    expect(seesBranchRuleNames(caller("write"))).toBe(false);
  });
});

describe("readsUnit / writesUnit", () => {
  it("follow the unit's mode, and site admins pass", () => {
    const writer = caller("read", user(2), { "repo.releases": "write", "repo.issues": "none" });
    expect(writesUnit(writer, "repo.releases")).toBe(true);
    expect(writesUnit(writer, "repo.code")).toBe(false);
    expect(readsUnit(writer, "repo.issues")).toBe(false);
    expect(readsUnit(caller("none", user(9, true)), "repo.issues")).toBe(true);
    expect(writesUnit(caller("none", user(9, true)), "repo.code")).toBe(true);
  });
});

describe("seesDeployKeyRepository", () => {
  const owner = user(1);
  it("shows the repository to its owner and site admins only", () => {
    expect(seesDeployKeyRepository({ viewer: owner, owner })).toBe(true);
    expect(seesDeployKeyRepository({ viewer: user(9, true), owner })).toBe(true);
    expect(seesDeployKeyRepository({ viewer: user(2), owner })).toBe(false);
    expect(seesDeployKeyRepository({ viewer: null, owner })).toBe(false);
  });
});

describe("mayQueryPermissionOf", () => {
  it("lets admins ask about anyone and others only about themselves", () => {
    expect(mayQueryPermissionOf(caller("admin"), { id: 5 })).toBe(true);
    expect(mayQueryPermissionOf(caller("write", user(9, true)), { id: 5 })).toBe(true);
    expect(mayQueryPermissionOf(caller("write"), { id: 2 })).toBe(true);
    expect(mayQueryPermissionOf(caller("write"), { id: 5 })).toBe(false);
    expect(() => requirePermissionQuery(caller("write"), { id: 5 })).toThrow(
      "Only admins can query all permissions",
    );
  });
});

describe("requireLockRemoval", () => {
  const lock = { ownerId: 2, ownerName: "ann" };
  it("lets the lock's owner remove it, and others only by force as repository admins", () => {
    expect(() => requireLockRemoval(lock, user(2), permission("read"), false)).not.toThrow();
    expect(() => requireLockRemoval(lock, user(3), permission("admin"), false)).toThrow(
      "the lock belongs to ann; use force to remove it",
    );
    expect(() => requireLockRemoval(lock, user(3), permission("admin"), true)).not.toThrow();
    expect(() => requireLockRemoval(lock, user(3), permission("write"), true)).toThrow(
      "only repository admins may force the removal of another user's lock",
    );
  });
});
