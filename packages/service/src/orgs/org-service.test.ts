import type { Repository, User } from "@kiln/domain";
import { repositories } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import { type Actor, ANONYMOUS, actorFor, viewerOf } from "../access/actor.js";
import { hasAccess } from "../access/repo-permission.js";
import type { Services } from "../services.js";

describe.each(DIALECTS)("organizations, teams and permissions on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const user = (extra = {}) => {
    const name = uniqueName("u");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1", ...extra });
  };
  const repo = (owner: User, isPrivate: boolean): Promise<Repository> => {
    const name = uniqueName("r");
    return repositories.insertRepository(s.ctx.db, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
      isPrivate,
    });
  };

  it("creates an organization whose creator is its only owner, in the Owners team", async () => {
    const creator = await user();
    const org = await s.orgs.create(creator, uniqueName("org"), {
      visibility: "limited",
      fullName: "The Org",
    });
    expect(org).toMatchObject({ type: "organization", visibility: "limited", fullName: "The Org" });
    const teams = await s.teams.list(org, { page: 1, limit: 10 });
    expect(teams.items).toMatchObject([
      { name: "Owners", accessMode: "owner", includesAllRepositories: true, canCreateOrgRepo: true },
    ]);
    expect((await s.teams.members(teams.items[0]!, { page: 1, limit: 10 })).items.map((u) => u.id)).toEqual([
      creator.id,
    ]);
    expect(await s.permissions.isOrgOwner(org, creator)).toBe(true);
    await expect(s.orgs.create(creator, org.name.toUpperCase(), {})).rejects.toMatchObject({
      kind: "invalid_argument",
    });
  });

  it("keeps the Owners team and its last member", async () => {
    const owner = await user();
    const org = await s.orgs.create(owner, uniqueName("org"), {});
    const owners = (await s.teams.list(org, { page: 1, limit: 10 })).items[0]!;
    await expect(s.teams.delete(owners)).rejects.toMatchObject({ kind: "invalid_argument" });
    await expect(s.teams.removeMember(owners, owner)).rejects.toThrow("last member of owner team");
    await expect(s.orgs.removeMember(org, owner)).rejects.toThrow("last member of owner team");
    const second = await user();
    await s.teams.addMember(owners, second, owner);
    await s.teams.removeMember(owners, owner);
    expect(await s.permissions.isOrgOwner(org, owner)).toBe(false);
    expect((await s.permissions.inOrganization(org, owner)).isMember).toBe(false);
  });

  it("derives team modes like Forgejo: admin teams get every unit, a units map sets the team mode to none", async () => {
    const owner = await user();
    const org = await s.orgs.create(owner, uniqueName("org"), {});
    const admin = await s.teams.create(org, { name: "admins", permission: "admin" });
    expect(admin.accessMode).toBe("admin");
    expect(Object.values(admin.units)).toHaveLength(10);
    const mapped = await s.teams.create(org, {
      name: "mapped",
      permission: "write",
      unitsMap: { "repo.code": "write", "repo.issues": "read", "repo.bogus": "admin" },
    });
    expect(mapped.accessMode).toBe("none");
    expect(mapped.units).toEqual({ "repo.code": "write", "repo.issues": "read" });
    const listed = await s.teams.create(org, {
      name: "listed",
      permission: "read",
      units: ["repo.code", "repo.pulls"],
    });
    expect(listed.units).toEqual({ "repo.code": "read", "repo.pulls": "read" });
    await expect(s.teams.create(org, { name: "empty", permission: "read" })).rejects.toThrow(
      "units permission should not be empty",
    );
    await expect(s.teams.create(org, { name: "ADMINS", permission: "admin" })).rejects.toThrow(
      "team already exists",
    );
  });

  it("agrees with the SQL visibility filter for every viewer and repository", async () => {
    const owner = await user();
    const orgs = [
      await s.orgs.create(owner, uniqueName("pub"), { visibility: "public" }),
      await s.orgs.create(owner, uniqueName("lim"), { visibility: "limited" }),
      await s.orgs.create(owner, uniqueName("priv"), { visibility: "private" }),
    ];
    const member = await user();
    const collaborator = await user();
    const outsider = await user();
    const restricted = await user({ restricted: true });
    const admin = await user({ isAdmin: true });
    const repos: Repository[] = [];
    for (const org of orgs) {
      const teamAll = await s.teams.create(org, {
        name: "readers",
        permission: "read",
        units: ["repo.code"],
      });
      await s.teams.addMember(teamAll, member, owner);
      for (const isPrivate of [false, true]) repos.push(await repo(org, isPrivate));
      const given = await repo(org, true);
      repos.push(given);
      await s.teams.addRepo(teamAll, given, owner);
    }
    await s.ctx.db
      .insertInto("collaboration")
      .values({ repoId: repos[5]!.id, userId: collaborator.id, mode: "read" })
      .execute();
    const actors: Actor[] = [
      ANONYMOUS,
      ...[owner, member, collaborator, outsider, restricted, admin].map(actorFor),
    ];
    // The same users through `public-only` tokens: only public repositories of public owners.
    for (const user of [owner, member, collaborator, admin])
      actors.push({ user, scopes: null, publicOnly: true });
    for (const actor of actors) {
      const who = `${actor.user?.name ?? "anonymous"}${actor.publicOnly ? " (public-only)" : ""}`;
      for (const org of orgs) {
        const counted = await s.orgs.reposCount(org, viewerOf(actor));
        let decided = 0;
        for (const r of repos.filter((x) => x.ownerId === org.id)) {
          if (hasAccess(await s.access.permissionOn(actor, r))) decided++;
        }
        expect(counted, `${who} on ${org.name}`).toBe(decided);
      }
    }
    // Spot checks of what that means.
    const count = (org: User, user: User | null) => s.orgs.reposCount(org, viewerOf(actorFor(user)));
    expect(await count(orgs[0]!, null)).toBe(1);
    expect(await count(orgs[0]!, member)).toBe(2);
    expect(await count(orgs[2]!, outsider)).toBe(0);
    expect(await count(orgs[2]!, admin)).toBe(3);
    expect(await count(orgs[1]!, collaborator)).toBe(2);
    expect(
      await s.orgs.reposCount(orgs[0]!, viewerOf({ user: member, scopes: null, publicOnly: true })),
    ).toBe(1);
  });

  it("refuses to delete an organization that owns repositories, and a user who owns things unless purged", async () => {
    const owner = await user();
    const org = await s.orgs.create(owner, uniqueName("org"), {});
    await repo(org, false);
    await expect(s.orgs.delete(org)).rejects.toThrow("organization still has ownership of repositories");
    await expect(s.users.delete(owner, null, { purge: false })).rejects.toThrow(
      "last owner of organizations",
    );
    const withRepo = await user();
    await repo(withRepo, true);
    await expect(s.users.delete(withRepo, null, { purge: false })).rejects.toThrow(
      "user still has ownership of repositories",
    );
    await s.users.delete(owner, null, { purge: true });
    await expect(s.access.org(ANONYMOUS, org.name)).rejects.toMatchObject({ kind: "not_found" });
    await s.users.delete(withRepo, null, { purge: true });
  });
});
