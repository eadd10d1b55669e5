import type { User } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import {
  bypassesRepoLimit,
  mayCreateOrg,
  mayCreateRepoFor,
  mayForkInto,
  mayGenerateFor,
  mayImportLocal,
} from "./owner-rules.js";

const alice = { id: 1, isAdmin: false, allowCreateOrganization: false, allowImportLocal: false } as User;
const admin = { id: 3, isAdmin: true, allowCreateOrganization: false, allowImportLocal: false } as User;
const bob = { id: 2, type: "individual" } as User;
const org = { id: 10, type: "organization" } as User;
const self = { id: 1, type: "individual" } as User;

describe("account flags", () => {
  it("let site admins, and users allowed to, create organizations and import local paths", () => {
    expect(mayCreateOrg(alice)).toBe(false);
    expect(mayCreateOrg({ ...alice, allowCreateOrganization: true })).toBe(true);
    expect(mayCreateOrg(admin)).toBe(true);
    expect(mayImportLocal(alice)).toBe(false);
    expect(mayImportLocal({ ...alice, allowImportLocal: true })).toBe(true);
    expect(mayImportLocal(admin)).toBe(true);
    expect(bypassesRepoLimit(admin)).toBe(true);
    expect(bypassesRepoLimit(alice)).toBe(false);
  });
});

describe("mayCreateRepoFor", () => {
  it("allows one's own namespace, granting organizations, and anywhere for site admins", () => {
    expect(mayCreateRepoFor(alice, self, false)).toBe(true);
    expect(mayCreateRepoFor(alice, bob, true)).toBe(false);
    expect(mayCreateRepoFor(admin, bob, false)).toBe(true);
    expect(mayCreateRepoFor(alice, org, false)).toBe(false);
    expect(mayCreateRepoFor(alice, org, true)).toBe(true);
    expect(mayCreateRepoFor(admin, org, false)).toBe(true);
  });
});

describe("mayForkInto / mayGenerateFor", () => {
  it("forks into an organization only as a member or site admin", () => {
    expect(mayForkInto(alice, self, false)).toBe(true);
    expect(mayForkInto(alice, org, false)).toBe(false);
    expect(mayForkInto(alice, org, true)).toBe(true);
    expect(mayForkInto(admin, org, false)).toBe(true);
  });

  it("generates for another user only as a site admin, and leaves organizations to the creation rule", () => {
    expect(mayGenerateFor(alice, self)).toBe(true);
    expect(mayGenerateFor(alice, bob)).toBe(false);
    expect(mayGenerateFor(admin, bob)).toBe(true);
    expect(mayGenerateFor(alice, org)).toBe(true);
  });
});
