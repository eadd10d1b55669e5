import { repositories, users } from "@kiln/storage";
import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

/**
 * Crash safety of renames: the directories of a renamed account's repositories move only after
 * the rename committed, from a journal that start-up finishes. A kill -9 is simulated by stopping
 * the operation at the point where the process would die.
 */
describe.each(DIALECTS)("journalled repository moves on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  const userWithRepos = async (...names: string[]) => {
    const name = uniqueName("mover");
    const user = await s.users.create({
      username: name,
      email: `${name}@example.com`,
      password: "password1",
    });
    for (const repo of names) await s.repositories.create(user, user, { name: repo, autoInit: true });
    return user;
  };
  const journal = () => s.ctx.db.selectFrom("repoMove").selectAll().execute();

  it("a deletion killed after its commit leaves its directory journalled, and start-up removes it", async () => {
    const user = await userWithRepos("doomed");
    const store = s.repositories.store;
    const moves = s.repositories.moves;
    const row = await repositories.findRepositoryByName(s.ctx.db, user.id, "doomed");
    if (!row) throw new Error("repository row missing");
    const removals = () => s.ctx.db.selectFrom("repoDeletion").selectAll().execute();
    // The process dies right after the commit: the directory is still there, journalled.
    const drainRemovals = moves.drainRemovals;
    moves.drainRemovals = () => Promise.resolve();
    try {
      await s.repositories.delete(row);
    } finally {
      moves.drainRemovals = drainRemovals;
    }
    expect(await repositories.findRepositoryById(s.ctx.db, row.id)).toBeUndefined();
    expect(await store.exists(user.name, "doomed")).toBe(true);
    expect(await removals()).toHaveLength(1);
    // Start-up removes it and empties the journal.
    await moves.drainRemovals();
    expect(await store.exists(user.name, "doomed")).toBe(false);
    expect(await removals()).toEqual([]);
  });

  it("a removal journalled before a crash never takes a new repository of the same name", async () => {
    const user = await userWithRepos("phoenix");
    const store = s.repositories.store;
    const row = await repositories.findRepositoryByName(s.ctx.db, user.id, "phoenix");
    if (!row) throw new Error("repository row missing");
    await s.repositories.delete(row);
    // A crash between removing the directory and forgetting the journal row leaves the row behind.
    await s.ctx.db.insertInto("repoDeletion").values({ owner: user.name, name: "phoenix" }).execute();
    const again = await s.repositories.create(user, user, { name: "phoenix", autoInit: true });
    await s.repositories.moves.drainRemovals();
    expect(await store.exists(user.name, "phoenix")).toBe(true);
    expect((await repositories.findRepositoryById(s.ctx.db, again.id))?.name).toBe("phoenix");
  });

  it("a rename killed after its commit is finished by the start-up drain", async () => {
    const user = await userWithRepos("one", "two");
    const store = s.repositories.store;
    const moves = s.repositories.moves;
    const drain = moves.drain;
    // The process dies right after the commit: nothing moves on disk.
    moves.drain = () => Promise.resolve();
    const newName = uniqueName("renamed");
    try {
      await s.renames.rename(user, newName);
    } finally {
      moves.drain = drain;
    }
    expect((await users.findUserById(s.ctx.db, user.id))?.name).toBe(newName);
    expect(await store.exists(user.name, "one")).toBe(true);
    expect(await journal()).toHaveLength(2);

    // Start-up: the journal is carried out, in order, and emptied.
    await moves.drain();
    for (const repo of ["one", "two"]) {
      expect(await store.exists(newName, repo)).toBe(true);
      expect(await store.exists(user.name, repo)).toBe(false);
      const row = await repositories.findRepositoryByName(s.ctx.db, user.id, repo);
      if (!row) throw new Error("repository row missing");
      expect((await s.repositories.git(row)).gitdir).toContain(newName.toLowerCase());
    }
    expect(await journal()).toEqual([]);
    // Draining again (a second start) finds nothing to do.
    await moves.drain();
  });

  it("a move whose target is taken stays journalled and moves nothing", async () => {
    const user = await userWithRepos("left", "right");
    const store = s.repositories.store;
    await s.ctx.db
      .insertInto("repoMove")
      .values({ fromOwner: user.name, fromName: "left", toOwner: user.name, toName: "right" })
      .execute();
    await s.repositories.moves.drain();
    expect(await store.exists(user.name, "left")).toBe(true);
    expect(await store.exists(user.name, "right")).toBe(true);
    expect(await journal()).toHaveLength(1);
    await s.ctx.db.deleteFrom("repoMove").execute();
  });

  it("a rename killed before its commit leaves rows, journal and directories as they were", async () => {
    const user = await userWithRepos("kept");
    const moves = s.repositories.moves;
    const journalMove = moves.journal;
    moves.journal = async (...args) => {
      await journalMove.apply(moves, args);
      throw new Error("killed before the commit");
    };
    try {
      await expect(s.renames.rename(user, uniqueName("never"))).rejects.toThrow("killed before the commit");
    } finally {
      moves.journal = journalMove;
    }
    expect((await users.findUserById(s.ctx.db, user.id))?.name).toBe(user.name);
    expect(await journal()).toEqual([]);
    expect(await s.repositories.store.exists(user.name, "kept")).toBe(true);
  });

  it("a move already made before the crash (the journal row outlived it) counts as done", async () => {
    const user = await userWithRepos("done");
    const newName = uniqueName("done-owner");
    await s.repositories.store.move({ owner: user.name, name: "done" }, { owner: newName, name: "done" });
    await s.ctx.db
      .insertInto("repoMove")
      .values({ fromOwner: user.name, fromName: "done", toOwner: newName, toName: "done" })
      .execute();
    await s.repositories.moves.drain();
    expect(await journal()).toEqual([]);
    expect(await s.repositories.store.exists(newName, "done")).toBe(true);
  });

  it("an organization's rename journals and moves its repositories the same way", async () => {
    const owner = await userWithRepos();
    const org = await s.orgs.create(owner, uniqueName("org"), {});
    await s.repositories.create(owner, org, { name: "shared", autoInit: true });
    const newName = uniqueName("org-new");
    await s.renames.renameOrg(org, newName);
    expect(await s.repositories.store.exists(newName, "shared")).toBe(true);
    expect(await s.repositories.store.exists(org.name, "shared")).toBe(false);
    expect(await journal()).toEqual([]);
  });
});
