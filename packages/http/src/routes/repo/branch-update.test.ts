import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

describe.each(DIALECTS)("PATCH /branches/{branch} (rename) on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;

  let as: AsCaller;
  const rename = (user: TestUser | null, from: string, to: string) =>
    as(user, "PATCH", `/branches/${from}`, { name: to });

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner, writer],
    } = await openWorld(dialect, {
      users: ["owner", "writer"],
      repo: { name: "renamed" },
      collaborators: { writer: "write" },
    }));
    for (const name of ["feature", "other", "guarded", "release/1"]) {
      expect((await as(owner, "POST", "/branches", { new_branch_name: name })).status).toBe(201);
    }
    expect((await as(owner, "POST", "/branch_protections", { rule_name: "guarded" })).status).toBe(201);
    expect((await as(owner, "POST", "/branch_protections", { rule_name: "release/*" })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it("answers Forgejo's 422, 404 and 401", async () => {
    const same = await rename(writer, "feature", "feature");
    expect(same.status).toBe(422);
    expect(same.json.message).toBe(
      "Cannot rename a branch using the same name or rename to a branch that already exists.",
    );
    expect((await rename(writer, "feature", "other")).status).toBe(422);
    const missing = await rename(writer, "nope", "new");
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe("Branch doesn't exist.");
    expect((await rename(writer, "feature", "bad..name")).status).toBe(422);
    expect((await rename(null, "feature", "x")).status).toBe(401);
  });

  it("keeps the default and protected branches to admins, and glob-protected ones to nobody (403)", async () => {
    const main = await rename(writer, "main", "trunk");
    expect(main.status).toBe(403);
    expect(main.json.message).toBe(
      "User must be a repo or site admin to rename default or protected branches.",
    );
    expect((await rename(writer, "guarded", "guarded2")).status).toBe(403);
    const glob = await rename(owner, "release/1", "rel-1");
    expect(glob.status).toBe(403);
    expect(glob.json.message).toBe("Branch is protected by glob-based protection rules."); // A writer may not rename onto a protected name: the branch would become protected with
    // whatever it holds, past the rule's allowlist.
    const onto = await rename(writer, "other", "release/9");
    expect(onto.status).toBe(403);
    expect((await as(owner, "GET", "/branches/release%2F9")).status).toBe(404);
    // A name nesting with another branch is 422, as Forgejo's description lists.
    expect((await rename(writer, "other", "release")).status).toBe(422);
  });

  it("renames a branch for a writer (204): the old name is gone, the new one has its commit", async () => {
    const sha = (await as(owner, "GET", "/branches/feature")).json.commit.id;
    expect((await rename(writer, "feature", "feature-2")).status).toBe(204);
    expect((await as(owner, "GET", "/branches/feature")).status).toBe(404);
    expect((await as(owner, "GET", "/branches/feature-2")).json.commit.id).toBe(sha);
  });

  it("carries the rule named like the branch, and the default branch, to the new name", async () => {
    expect((await rename(owner, "guarded", "kept")).status).toBe(204);
    expect((await as(owner, "GET", "/branch_protections/kept")).status).toBe(200);
    expect((await as(owner, "GET", "/branch_protections/guarded")).status).toBe(404);
    expect((await rename(owner, "main", "trunk")).status).toBe(204);
    expect((await as(owner, "GET", "")).json.default_branch).toBe("trunk");
    expect((await as(owner, "GET", "/branches/trunk")).status).toBe(200);
  });
});
