import type { User } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import {
  accountFieldsFor,
  isSelfOrAdmin,
  isSiteAdmin,
  maySudo,
  requireOwnThread,
  requireSelfOrAdmin,
  requireSiteAdmin,
  seesKeyDetails,
} from "./account-rules.js";
import { publicOnlyViewer, seeAllViewer } from "./actor.js";

const alice = { id: 1, isAdmin: false };
const bob = { id: 2, isAdmin: false };
const admin = { id: 3, isAdmin: true };
const account = (over: Partial<User> = {}) =>
  ({ id: 1, keepEmailPrivate: false, hidePronouns: false, ...over }) as Pick<
    User,
    "id" | "keepEmailPrivate" | "hidePronouns"
  >;

describe("isSelfOrAdmin / requireSelfOrAdmin", () => {
  it("lets the account itself and site admins through, nobody else", () => {
    expect(isSelfOrAdmin(alice, { id: 1 })).toBe(true);
    expect(isSelfOrAdmin(admin, { id: 1 })).toBe(true);
    expect(isSelfOrAdmin(bob, { id: 1 })).toBe(false);
    expect(isSelfOrAdmin(null, { id: 1 })).toBe(false);
  });

  it("answers another user with Forgejo's 403", () => {
    expect(() => requireSelfOrAdmin(bob, { id: 1 })).toThrow(
      "doer should be the site admin or be same as the contextUser",
    );
    expect(() => requireSelfOrAdmin(alice, { id: 1 })).not.toThrow();
  });
});

describe("maySudo", () => {
  it("is for site admins only", () => {
    expect(maySudo(admin)).toBe(true);
    expect(maySudo(alice)).toBe(false);
    expect(maySudo(null)).toBe(false);
  });
});

describe("seesKeyDetails", () => {
  it("shows a user's key details to its owner and admins; a deploy key's only to admins", () => {
    expect(seesKeyDetails(alice, { ownerId: 1 })).toBe(true);
    expect(seesKeyDetails(bob, { ownerId: 1 })).toBe(false);
    expect(seesKeyDetails(admin, { ownerId: 1 })).toBe(true);
    expect(seesKeyDetails(alice, { ownerId: null })).toBe(false);
    expect(seesKeyDetails(admin, { ownerId: null })).toBe(true);
  });
});

describe("accountFieldsFor", () => {
  it("shows everything to the account itself and to site admins", () => {
    const hidden = account({ keepEmailPrivate: true, hidePronouns: true });
    for (const viewer of [alice, admin]) {
      expect(accountFieldsFor(viewer, hidden)).toEqual({ privateFields: true, email: true, pronouns: true });
    }
  });

  it("shows other signed-in users the e-mail address unless it is kept private", () => {
    expect(accountFieldsFor(bob, account()).email).toBe(true);
    expect(accountFieldsFor(bob, account({ keepEmailPrivate: true })).email).toBe(false);
    expect(accountFieldsFor(bob, account()).privateFields).toBe(false);
  });

  it("never shows anonymous viewers the e-mail address, and hides hidden pronouns", () => {
    expect(accountFieldsFor(null, account())).toEqual({ privateFields: false, email: false, pronouns: true });
    expect(accountFieldsFor(null, account({ hidePronouns: true })).pronouns).toBe(false);
  });
});

describe("isSiteAdmin / requireSiteAdmin", () => {
  it("lets only site admins use site-admin routes, with Forgejo's 403 for others", () => {
    expect(isSiteAdmin(admin)).toBe(true);
    expect(isSiteAdmin(alice)).toBe(false);
    expect(isSiteAdmin(null)).toBe(false);
    expect(() => requireSiteAdmin(admin)).not.toThrow();
    expect(() => requireSiteAdmin(alice)).toThrow("user should be the site admin");
  });
});

describe("publicOnlyViewer / seeAllViewer", () => {
  it("limit a doubtful caller to public things, and let service work see everything", () => {
    const user = { id: 4, isAdmin: false, isRestricted: true } as User;
    expect(publicOnlyViewer(user)).toEqual({ id: 4, isAdmin: false, isRestricted: true, publicOnly: true });
    expect(seeAllViewer(7)).toEqual({ id: 7, isAdmin: true, isRestricted: false, publicOnly: false });
    expect(seeAllViewer().id).toBe(0);
  });
});

describe("requireOwnThread", () => {
  it("lets only the thread's own user change it, site admins included", () => {
    const ann = { id: 2, isAdmin: false } as User;
    const admin = { id: 9, isAdmin: true } as User;
    expect(() => requireOwnThread(ann, 2)).not.toThrow();
    expect(() => requireOwnThread(ann, 3)).toThrow("Can't change notification of another user: 3, 2");
    expect(() => requireOwnThread(admin, 2)).toThrow("Can't change notification of another user");
  });
});
