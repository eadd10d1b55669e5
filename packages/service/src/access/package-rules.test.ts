import { describe, expect, it } from "vitest";
import { heldToPackageLimits, mayWritePackages, orgPackageMode } from "./package-rules.js";

const standing = (isOwner: boolean, isAdmin: boolean, canWrite: boolean) => ({ isOwner, isAdmin, canWrite });

describe("orgPackageMode", () => {
  it("gives owners, admins, writers and other members their mode", () => {
    expect(orgPackageMode(standing(true, true, true))).toBe("owner");
    expect(orgPackageMode(standing(false, true, true))).toBe("admin");
    expect(orgPackageMode(standing(false, false, true))).toBe("write");
    expect(orgPackageMode(standing(false, false, false))).toBe("read");
  });
});

describe("mayWritePackages / heldToPackageLimits", () => {
  it("lets writers and site admins write, and frees only site admins from the limits", () => {
    expect(mayWritePackages("write", { isAdmin: false })).toBe(true);
    expect(mayWritePackages("read", { isAdmin: false })).toBe(false);
    expect(mayWritePackages("read", { isAdmin: true })).toBe(true);
    expect(mayWritePackages("read", null)).toBe(false);
    expect(heldToPackageLimits({ isAdmin: false })).toBe(true);
    expect(heldToPackageLimits(null)).toBe(true);
    expect(heldToPackageLimits({ isAdmin: true })).toBe(false);
  });
});
