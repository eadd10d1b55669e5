import { ANONYMOUS } from "@kiln/service";
import { protectedBranches } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

describe.each(DIALECTS)("branch protections over HTTP on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let pusher: TestUser;
  let member: TestUser;
  let reader: TestUser;
  let repoId: number;
  const path = "/repos/acme/guarded";

  let as: AsCaller;

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner, pusher, member, reader],
    } = await openWorld(dialect, {
      users: ["owner", "pusher", "member", "reader"],
      org: "acme",
      repo: { name: "guarded" },
      collaborators: { pusher: "write" },
    }));
    const call = (method: string, p: string, body?: unknown) =>
      t.call(method, p, { token: owner.token, ...(body !== undefined ? { body } : {}) });
    const writers = await call("POST", "/orgs/acme/teams", {
      name: "writers",
      units_map: { "repo.code": "write" },
      includes_all_repositories: true,
    });
    const readers = await call("POST", "/orgs/acme/teams", {
      name: "readers",
      units_map: { "repo.code": "read" },
      includes_all_repositories: true,
    });
    expect((await call("PUT", `/teams/${writers.json.id}/members/member`)).status).toBe(204);
    expect((await call("PUT", `/teams/${readers.json.id}/members/reader`)).status).toBe(204);
    repoId = (await call("GET", path)).json.id;
  });
  afterAll(() => t?.close());

  it("creates a rule (201) with users and teams by name, keeping only those with write access", async () => {
    const res = await as(owner, "POST", "/branch_protections", {
      rule_name: "main",
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: ["pusher", "reader"],
      push_whitelist_teams: ["writers", "readers"],
      enable_merge_whitelist: true,
      merge_whitelist_usernames: ["pusher"],
      merge_whitelist_teams: ["writers"],
      approvals_whitelist_username: ["reader"],
      required_approvals: 2,
      block_on_rejected_reviews: true,
      dismiss_stale_approvals: true,
      require_signed_commits: true,
      block_on_outdated_branch: true,
      protected_file_patterns: "*.lock;ci/**",
      unprotected_file_patterns: "docs/**",
      apply_to_admins: true,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      branch_name: "main",
      rule_name: "main",
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: ["pusher"],
      push_whitelist_teams: ["writers"],
      enable_merge_whitelist: true,
      merge_whitelist_usernames: ["pusher"],
      merge_whitelist_teams: ["writers"],
      approvals_whitelist_username: ["reader"],
      required_approvals: 2,
      block_on_rejected_reviews: true,
      dismiss_stale_approvals: true,
      require_signed_commits: true,
      block_on_outdated_branch: true,
      protected_file_patterns: "*.lock;ci/**",
      unprotected_file_patterns: "docs/**",
      apply_to_admins: true,
    });
    const stored = await protectedBranches.findProtectedBranch(t.services.ctx.db, repoId, "main");
    expect(stored?.settings.whitelistUserIds).toEqual([pusher.id]);
    expect(stored?.settings.whitelistTeamIds).toHaveLength(1);
  });

  it("takes glob rule names, shown without a branch_name", async () => {
    const res = await as(owner, "POST", "/branch_protections", { rule_name: "release/**" });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ rule_name: "release/**", branch_name: "", enable_push: false });
    const legacy = await as(owner, "POST", "/branch_protections", { branch_name: "stable" });
    expect(legacy.json).toMatchObject({ rule_name: "stable", branch_name: "stable" });
  });

  it("refuses a taken name (403), an empty one (400), unknown users or teams (422)", async () => {
    const taken = await as(owner, "POST", "/branch_protections", { rule_name: "main" });
    expect(taken.status).toBe(403);
    expect(taken.json.message).toBe("Branch protection already exist");
    expect((await as(owner, "POST", "/branch_protections", {})).status).toBe(400);
    const ghost = await as(owner, "POST", "/branch_protections", {
      rule_name: "x",
      push_whitelist_usernames: ["ghost"],
    });
    expect(ghost.status).toBe(422);
    const team = await as(owner, "POST", "/branch_protections", {
      rule_name: "y",
      merge_whitelist_teams: ["nope"],
    });
    expect(team.status).toBe(422);
    expect((await as(owner, "GET", "/branch_protections/x")).status).toBe(404);
  });

  it("bounds rule names and file pattern lists: 422 naming the limit, nothing stored", async () => {
    const long = await as(owner, "POST", "/branch_protections", { rule_name: `r${"*".repeat(255)}` });
    expect(long.status).toBe(422);
    expect(long.json.message).toMatch("at most 255 characters");
    const many = Array.from({ length: 101 }, (_, i) => `f${i}.txt`).join(";");
    const created = await as(owner, "POST", "/branch_protections", {
      rule_name: "patterns",
      protected_file_patterns: many,
    });
    expect(created.status).toBe(422);
    expect(created.json.message).toBe("protected_file_patterns: at most 100 patterns are allowed");
    const edited = await as(owner, "PATCH", "/branch_protections/main", {
      unprotected_file_patterns: `${"*a".repeat(128)}b`,
    });
    expect(edited.status).toBe(422);
    expect(edited.json.message).toBe("unprotected_file_patterns: a pattern may have at most 255 characters");
    expect((await as(owner, "GET", "/branch_protections/patterns")).status).toBe(404);
    expect((await as(owner, "GET", "/branch_protections/main")).json.unprotected_file_patterns).toBe(
      "docs/**",
    );
  });

  it("lists, gets, edits only what is set, and deletes", async () => {
    const list = await as(owner, "GET", "/branch_protections");
    expect(list.json.map((r: { rule_name: string }) => r.rule_name)).toEqual([
      "main",
      "release/**",
      "stable",
    ]);
    const glob = await as(owner, "GET", `/branch_protections/${encodeURIComponent("release/**")}`);
    expect(glob.status).toBe(200);
    const edited = await as(owner, "PATCH", "/branch_protections/main", {
      required_approvals: 1,
      push_whitelist_teams: [],
      protected_file_patterns: "",
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({
      required_approvals: 1,
      push_whitelist_teams: [],
      push_whitelist_usernames: ["pusher"],
      protected_file_patterns: "",
      dismiss_stale_approvals: true,
    });
    expect((await as(owner, "PATCH", "/branch_protections/nope", { enable_push: true })).status).toBe(404);
    expect((await as(owner, "DELETE", "/branch_protections/stable")).status).toBe(204);
    expect((await as(owner, "DELETE", "/branch_protections/stable")).status).toBe(404);
    expect((await as(owner, "GET", "/branch_protections/stable")).status).toBe(404);
  });

  it("is for repository admins only: 403 for writers, 401 anonymously", async () => {
    const denied = await as(pusher, "GET", "/branch_protections");
    expect(denied.status).toBe(403);
    expect((await as(pusher, "POST", "/branch_protections", { rule_name: "z" })).status).toBe(403);
    expect((await as(member, "DELETE", "/branch_protections/main")).status).toBe(403);
    expect((await as(reader, "GET", "/branch_protections/main")).status).toBe(403);
    expect((await as(null, "GET", "/branch_protections")).status).toBe(401);
  });

  it("builds each pusher's push policy from the rules", async () => {
    const services = t.services;
    const { repo } = await services.access.repo(ANONYMOUS, "acme", "guarded");
    const policy = async (name: string) =>
      services.pushPolicies.forPush(repo, await services.users.getByName(name));
    const main = (p: Awaited<ReturnType<typeof policy>>) => p.branchRules.find((r) => r.ruleName === "main");
    expect((await policy("pusher")).defaultBranch).toBe("main");
    expect(main(await policy("pusher"))).toMatchObject({
      canPush: true,
      canForcePush: false,
      canDelete: false,
    });
    expect(main(await policy("member"))?.canPush).toBe(false);
    await as(owner, "PATCH", "/branch_protections/main", { push_whitelist_teams: ["writers"] });
    expect(main(await policy("member"))?.canPush).toBe(true);
    expect(main(await policy("owner"))?.canPush).toBe(false);
    const release = (await policy("pusher")).branchRules.find((r) => r.ruleName === "release/**");
    expect(release).toMatchObject({ canPush: false, requireSignedCommits: false });
  });
});
