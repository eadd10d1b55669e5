import { describe, expect, it } from "vitest";
import { canSeeAccount, computeOrgPermission, seesOrgInside } from "./org-permission.js";

describe("computeOrgPermission", () => {
  const t = (accessMode: string, units = {}, canCreateOrgRepo = false) =>
    ({
      id: 1,
      orgId: 1,
      name: "t",
      lowerName: "t",
      description: "",
      accessMode,
      units,
      includesAllRepositories: false,
      canCreateOrgRepo,
    }) as never;

  it.each([
    [
      "no team",
      [],
      { isOwner: false, isAdmin: false, canWrite: false, canRead: false, canCreateRepository: false },
    ],
    [
      "Owners",
      [t("owner")],
      { isOwner: true, isAdmin: true, canWrite: true, canRead: true, canCreateRepository: true },
    ],
    [
      "admin team",
      [t("admin")],
      { isOwner: false, isAdmin: true, canWrite: true, canRead: true, canCreateRepository: false },
    ],
    [
      "units map with write",
      [t("none", { "repo.code": "write" })],
      { isOwner: false, isAdmin: false, canWrite: true, canRead: true, canCreateRepository: false },
    ],
    [
      "read team that may create repos",
      [t("read", { "repo.code": "read" }, true)],
      { isOwner: false, isAdmin: false, canWrite: false, canRead: true, canCreateRepository: true },
    ],
  ])("%s", (_name, teams, expected) => {
    expect(computeOrgPermission(teams as never)).toEqual(expected);
  });
});

describe("canSeeAccount", () => {
  const account = (
    visibility: "public" | "limited" | "private",
    type: "individual" | "organization" = "organization",
  ) => ({ id: 5, type, visibility }) as never;
  const user = (over = {}) => ({ id: 7, isAdmin: false, isRestricted: false, ...over }) as never;

  it.each([
    ["anonymous sees public", null, account("public"), false, true],
    ["anonymous does not see limited", null, account("limited"), false, false],
    ["signed-in sees limited", user(), account("limited"), false, true],
    ["outsider does not see private", user(), account("private"), false, false],
    ["member sees private", user(), account("private"), true, true],
    ["admin sees private", user({ isAdmin: true }), account("private"), false, true],
    [
      "restricted does not see a public organization",
      user({ isRestricted: true }),
      account("public"),
      false,
      false,
    ],
    [
      "restricted sees a public user",
      user({ isRestricted: true }),
      account("public", "individual"),
      false,
      true,
    ],
    ["anyone sees themselves", user({ id: 5 }), account("private", "individual"), false, true],
  ])("%s", (_name, viewer, target, member, expected) => {
    expect(canSeeAccount(viewer, target, member as boolean)).toBe(expected);
  });
});

describe("seesOrgInside", () => {
  it("lets members and site admins in, and nobody else", () => {
    expect(seesOrgInside({ isAdmin: false }, true)).toBe(true);
    expect(seesOrgInside({ isAdmin: true }, false)).toBe(true);
    expect(seesOrgInside({ isAdmin: false }, false)).toBe(false);
    expect(seesOrgInside(null, false)).toBe(false);
  });
});
