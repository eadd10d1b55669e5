import type { User, Visibility } from "@kiln/domain";
import { orgs, repositories, users } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";
import { type Actor, ANONYMOUS, actorFor, viewerOf } from "./actor.js";
import { canSeeAccount } from "./org-permission.js";

describe.each(DIALECTS)("the access module on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const user = (extra: { visibility?: Visibility; isAdmin?: boolean; restricted?: boolean } = {}) => {
    const name = uniqueName("acc");
    return s.users.create({ username: name, email: `${name}@example.com`, password: "password1", ...extra });
  };

  /** Every kind of account, and every kind of actor that looks at them. */
  async function world() {
    const member = await user();
    const outsider = await user();
    const admin = await user({ isAdmin: true });
    const restricted = await user({ restricted: true });
    const accounts: User[] = [];
    for (const visibility of ["public", "limited", "private"] as const) {
      accounts.push(await user({ visibility }));
      const org = await s.orgs.create(admin, uniqueName("acc-org"), { visibility });
      await orgs.addOrgMember(s.ctx.db, org.id, member.id);
      accounts.push(org);
    }
    const actors: Actor[] = [
      ANONYMOUS,
      ...[member, outsider, admin, restricted].map(actorFor),
      { user: member, scopes: null, publicOnly: true },
      { user: admin, scopes: null, publicOnly: true },
    ];
    return { accounts, actors, member };
  }

  it("lists exactly the accounts canSeeAccount allows, for every actor (SQL fragment = rule)", async () => {
    const { accounts, actors } = await world();
    const ids = new Set(accounts.map((a) => a.id));
    for (const actor of actors) {
      const viewer = viewerOf(actor);
      const listed = new Set<number>();
      for (const type of ["individual", "organization"] as const) {
        const page = await users.listUsers(
          s.ctx.db,
          { type, visibleTo: viewer },
          { page: 1, limit: 100_000 },
        );
        for (const u of page.items) if (ids.has(u.id)) listed.add(u.id);
      }
      for (const account of accounts) {
        const member =
          viewer !== null && (await orgs.findOrgMembership(s.ctx.db, account.id, viewer.id)) !== undefined;
        const who = `${actor.user?.name ?? "anonymous"}${actor.publicOnly ? " (public-only)" : ""} → ${account.type} ${account.visibility}`;
        expect(listed.has(account.id), who).toBe(canSeeAccount(viewer, account, member));
        expect(await s.access.canSee(actor, account), who).toBe(canSeeAccount(viewer, account, member));
      }
    }
  });

  it("resolves a repository with its owner and permission, hiding it from a public-only token", async () => {
    const owner = await user();
    const name = uniqueName("r");
    await repositories.insertRepository(s.ctx.db, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name,
      isPrivate: true,
    });
    const mine = await s.access.repo(actorFor(owner), owner.name.toUpperCase(), name, "owner");
    expect(mine.owner.id).toBe(owner.id);
    expect(mine.permission.mode).toBe("owner");
    await expect(
      s.access.repo({ user: owner, scopes: null, publicOnly: true }, owner.name, name),
    ).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(s.access.repo(ANONYMOUS, owner.name, name)).rejects.toMatchObject({ kind: "not_found" });
    const outsider = await user();
    await expect(s.access.repo(actorFor(outsider), owner.name, name)).rejects.toMatchObject({
      kind: "not_found",
    });
    await s.collaborators.add(mine.repo, outsider, "read", owner);
    const reader = await s.access.repo(actorFor(outsider), owner.name, name, { read: "repo.code" });
    expect(reader.permission.mode).toBe("read");
    await expect(
      s.access.repo(actorFor(outsider), owner.name, name, { write: ["repo.code"] }),
    ).rejects.toMatchObject({
      kind: "permission_denied",
      message: "user should have a permission to write to a repo",
    });
  });
});
