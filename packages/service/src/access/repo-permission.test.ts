import { describe, expect, it } from "vitest";
import {
  canRead,
  canWrite,
  computeRepoPermission,
  hasAccess,
  isRepoAdmin,
  type PermissionFacts,
  type TeamGrant,
} from "./repo-permission.js";

const OWNER_ID = 10;
const VIEWER = { id: 20, isAdmin: false, isRestricted: false };

function facts(over: Partial<PermissionFacts> = {}): PermissionFacts {
  return {
    viewer: VIEWER,
    repo: { ownerId: OWNER_ID, isPrivate: false },
    owner: { type: "organization", visibility: "public" },
    orgMember: false,
    collaborator: null,
    teams: [],
    ...over,
  };
}

const team = (over: Partial<TeamGrant>): TeamGrant => ({
  accessMode: "none",
  units: {},
  coversRepo: true,
  ...over,
});

/** [case, facts, expected overall mode, expected mode on repo.code, expected mode on repo.issues] */
const table: [string, PermissionFacts, string, string, string][] = [
  ["anonymous, public repo of a public owner", facts({ viewer: null }), "read", "read", "read"],
  [
    "anonymous, private repo",
    facts({ viewer: null, repo: { ownerId: OWNER_ID, isPrivate: true } }),
    "none",
    "none",
    "none",
  ],
  [
    "anonymous, public repo of a limited owner",
    facts({ viewer: null, owner: { type: "organization", visibility: "limited" } }),
    "none",
    "none",
    "none",
  ],
  [
    "signed-in, public repo of a limited owner",
    facts({ owner: { type: "organization", visibility: "limited" } }),
    "read",
    "read",
    "read",
  ],
  [
    "outsider, public repo of a private organization",
    facts({ owner: { type: "organization", visibility: "private" } }),
    "none",
    "none",
    "none",
  ],
  [
    "member, public repo of a private organization",
    facts({ owner: { type: "organization", visibility: "private" }, orgMember: true }),
    "read",
    "read",
    "read",
  ],
  [
    "outsider, public repo of a private user",
    facts({ owner: { type: "individual", visibility: "private" } }),
    "none",
    "none",
    "none",
  ],
  ["outsider, private repo", facts({ repo: { ownerId: OWNER_ID, isPrivate: true } }), "none", "none", "none"],
  [
    "restricted user, public repo of a public organization",
    facts({ viewer: { ...VIEWER, isRestricted: true } }),
    "none",
    "none",
    "none",
  ],
  [
    "restricted member with a team, private repo",
    facts({
      viewer: { ...VIEWER, isRestricted: true },
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      teams: [team({ accessMode: "write", units: { "repo.code": "write" } })],
    }),
    "write",
    "write",
    "none",
  ],
  [
    "site admin, private repo of a private organization",
    facts({
      viewer: { ...VIEWER, isAdmin: true },
      repo: { ownerId: OWNER_ID, isPrivate: true },
      owner: { type: "organization", visibility: "private" },
    }),
    "owner",
    "owner",
    "owner",
  ],
  [
    "the owning user, private repo",
    facts({
      viewer: { ...VIEWER, id: OWNER_ID },
      repo: { ownerId: OWNER_ID, isPrivate: true },
      owner: { type: "individual", visibility: "private" },
    }),
    "owner",
    "owner",
    "owner",
  ],
  [
    "read collaborator, private repo",
    facts({ repo: { ownerId: OWNER_ID, isPrivate: true }, collaborator: "read" }),
    "read",
    "read",
    "read",
  ],
  [
    "write collaborator, private repo",
    facts({ repo: { ownerId: OWNER_ID, isPrivate: true }, collaborator: "write" }),
    "write",
    "write",
    "write",
  ],
  ["admin collaborator, public repo", facts({ collaborator: "admin" }), "admin", "admin", "admin"],
  [
    "collaborator on a repo of a private user keeps access",
    facts({
      owner: { type: "individual", visibility: "private" },
      repo: { ownerId: OWNER_ID, isPrivate: true },
      collaborator: "write",
    }),
    "write",
    "write",
    "write",
  ],
  [
    "Owners team member, private repo",
    facts({
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      teams: [team({ accessMode: "owner" })],
    }),
    "owner",
    "owner",
    "owner",
  ],
  [
    "admin team member",
    facts({
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      teams: [team({ accessMode: "admin" })],
    }),
    "admin",
    "admin",
    "admin",
  ],
  [
    "team with per-unit modes (code write, issues read)",
    facts({
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      teams: [team({ units: { "repo.code": "write", "repo.issues": "read" } })],
    }),
    "write",
    "write",
    "read",
  ],
  [
    "team that does not cover the repository",
    facts({
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      teams: [team({ accessMode: "write", units: { "repo.code": "write" }, coversRepo: false })],
    }),
    "none",
    "none",
    "none",
  ],
  [
    "read team on a public repo adds nothing",
    facts({ orgMember: true, teams: [team({ accessMode: "read", units: { "repo.code": "read" } })] }),
    "read",
    "read",
    "read",
  ],
  [
    "two teams: strongest mode per unit wins",
    facts({
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      teams: [
        team({ units: { "repo.code": "read", "repo.issues": "write" } }),
        team({ units: { "repo.code": "write" } }),
      ],
    }),
    "write",
    "write",
    "write",
  ],
  [
    "collaborator read plus team write",
    facts({
      orgMember: true,
      repo: { ownerId: OWNER_ID, isPrivate: true },
      collaborator: "read",
      teams: [team({ units: { "repo.code": "write" } })],
    }),
    "write",
    "write",
    "read",
  ],
];

describe("computeRepoPermission", () => {
  it.each(table)("%s", (_name, f, mode, code, issues) => {
    const p = computeRepoPermission(f);
    expect(p.mode).toBe(mode);
    expect(p.units["repo.code"]).toBe(code);
    expect(p.units["repo.issues"]).toBe(issues);
    expect(hasAccess(p)).toBe(mode !== "none");
  });

  it("answers read/write/admin questions from the unit modes", () => {
    const p = computeRepoPermission(
      facts({ orgMember: true, teams: [team({ units: { "repo.code": "write" } })] }),
    );
    expect(canRead(p, "repo.wiki")).toBe(true);
    expect(canWrite(p, "repo.code")).toBe(true);
    expect(canWrite(p, "repo.issues")).toBe(false);
    expect(isRepoAdmin(p)).toBe(false);
    expect(isRepoAdmin(computeRepoPermission(facts({ collaborator: "admin" })))).toBe(true);
  });
});
