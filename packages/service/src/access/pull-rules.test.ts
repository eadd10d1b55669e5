import type { Repository } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { caller, permission, siteAdmin, user } from "../../test/rule-fixtures.js";
import { mayBeWhitelisted } from "./branch-rules.js";
import {
  allowsMaintainerEditsByDefault,
  mayDeleteReview,
  mayDismissReview,
  mayGrantMaintainerEdits,
  mayReview,
  seesPendingReview,
  writesCode,
} from "./pull-rules.js";

const base = (defaultAllowMaintainerEdit: boolean) =>
  ({ pullsConfig: { defaultAllowMaintainerEdit } }) as Pick<Repository, "pullsConfig">;

describe("writesCode, mayReview and mayBeWhitelisted", () => {
  it("judge the code and pull request units of a permission", () => {
    expect(writesCode({ permission: permission("write") })).toBe(true);
    expect(writesCode({ permission: permission("write", { "repo.code": "read" }) })).toBe(false);
    expect(mayReview(permission("read"))).toBe(true);
    expect(mayReview(permission("read", { "repo.pulls": "none" }))).toBe(false);
    expect(mayBeWhitelisted(permission("read"), "read")).toBe(true);
    expect(mayBeWhitelisted(permission("read"), "write")).toBe(false);
    expect(mayBeWhitelisted(permission("write"), "write")).toBe(true);
    expect(mayBeWhitelisted(permission("none"), "read")).toBe(false);
  });
});

describe("maintainer edits", () => {
  it("default to the base's setting only for a poster who writes to the head", () => {
    expect(allowsMaintainerEditsByDefault(base(true), { permission: permission("write") })).toBe(true);
    expect(allowsMaintainerEditsByDefault(base(true), { permission: permission("read") })).toBe(false);
    expect(allowsMaintainerEditsByDefault(base(false), { permission: permission("write") })).toBe(false);
  });

  it("are granted by the poster alone, who must write to a head it sees", () => {
    const head = { permission: permission("write") };
    expect(mayGrantMaintainerEdits(caller("read"), { posterId: 2 }, head)).toBe(true);
    expect(mayGrantMaintainerEdits(caller("admin"), { posterId: 3 }, head)).toBe(false);
    expect(mayGrantMaintainerEdits(caller("read"), { posterId: 2 }, undefined)).toBe(false);
    expect(mayGrantMaintainerEdits(caller("read"), { posterId: 2 }, { permission: permission("read") })).toBe(
      false,
    );
  });
});

describe("reviews", () => {
  it("show a pending review to its reviewer and site admins only", () => {
    expect(seesPendingReview(user(2), { reviewerId: 2 })).toBe(true);
    expect(seesPendingReview(user(3), { reviewerId: 2 })).toBe(false);
    expect(seesPendingReview(siteAdmin, { reviewerId: 2 })).toBe(true);
    expect(seesPendingReview(null, { reviewerId: null })).toBe(false);
  });

  it("are deleted by their reviewer or a site admin, dismissed by admins", () => {
    expect(mayDeleteReview(user(2), { reviewerId: 2 })).toBe(true);
    expect(mayDeleteReview(user(2), { reviewerId: 3 })).toBe(false);
    expect(mayDeleteReview(siteAdmin, { reviewerId: 3 })).toBe(true);
    expect(mayDismissReview(caller("admin"))).toBe(true);
    expect(mayDismissReview(caller("read", siteAdmin))).toBe(true);
    expect(mayDismissReview(caller("write"))).toBe(false);
  });
});
