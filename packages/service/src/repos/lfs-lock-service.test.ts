import { describe, expect, it } from "vitest";
import { cleanLockPath } from "./lfs-lock-service.js";

describe("cleanLockPath", () => {
  it("resolves empty, . and .. segments as Forgejo's PathJoinRel, never above the root", () => {
    expect(cleanLockPath("art/hero.psd")).toBe("art/hero.psd");
    expect(cleanLockPath("/art//./hero.psd/")).toBe("art/hero.psd");
    expect(cleanLockPath("art/x/../hero.psd")).toBe("art/hero.psd");
    expect(cleanLockPath("../../hero.psd")).toBe("hero.psd");
    expect(cleanLockPath("a/../..")).toBe("");
    expect(cleanLockPath("./")).toBe("");
    // Case is kept: locks compare without it, but show the path as it was locked.
    expect(cleanLockPath("Art/Hero.PSD")).toBe("Art/Hero.PSD");
  });
});
