import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const names = (res: { json: { login: string }[] }) => res.json.map((u) => u.login);

describe.each(DIALECTS)("assignees and reviewers on %s", (dialect) => {
  let t: TestApp;
  const who = {} as Record<
    "owner" | "writer" | "reader" | "watcher" | "outsider" | "member" | "teamWriter" | "teamReader",
    TestUser
  >;
  let tools: TestRepo;
  let vault: TestRepo;
  let orgRepo: { path: string };
  let orgSecret: { path: string };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    for (const [key, name] of [
      ["owner", "pp-a-owner"],
      ["writer", "pp-b-writer"],
      ["reader", "pp-c-reader"],
      ["watcher", "pp-d-watcher"],
      ["outsider", "pp-e-outsider"],
      ["member", "pp-f-member"],
      ["teamWriter", "pp-g-teamwriter"],
      ["teamReader", "pp-h-teamreader"],
    ] as const)
      who[key] = await t.user({ name });
    tools = await createRepo(t, who.owner, "tools");
    vault = await createRepo(t, who.owner, "vault", { private: true });
    for (const repo of [tools, vault]) {
      for (const [user, permission] of [
        [who.writer, "write"],
        [who.reader, "read"],
      ] as const) {
        const put = await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
          token: who.owner.token,
          body: { permission },
        });
        expect(put.status).toBe(204);
      }
      // The watcher watches both; only a public repository counts its watchers as reviewers.
      await t.call("PUT", `${repo.path}/collaborators/${who.watcher.name}`, {
        token: who.owner.token,
        body: { permission: "read" },
      });
      expect((await t.call("PUT", `${repo.path}/subscription`, { token: who.watcher.token })).status).toBe(
        200,
      );
      await t.call("DELETE", `${repo.path}/collaborators/${who.watcher.name}`, { token: who.owner.token });
    }

    expect(
      (await t.call("POST", "/orgs", { token: who.owner.token, body: { username: "pp-org" } })).status,
    ).toBe(201);
    const orgRepoOf = async (name: string, isPrivate: boolean) => {
      const made = await t.call("POST", "/orgs/pp-org/repos", {
        token: who.owner.token,
        body: { name, private: isPrivate },
      });
      expect(made.status).toBe(201);
      return { path: `/repos/pp-org/${name}` };
    };
    orgRepo = await orgRepoOf("site", false);
    orgSecret = await orgRepoOf("plans", true);
    const team = async (name: string, units_map: Record<string, string>, member: TestUser) => {
      const made = await t.call("POST", "/orgs/pp-org/teams", {
        token: who.owner.token,
        body: { name, units_map, includes_all_repositories: false },
      });
      expect(made.status).toBe(201);
      const id = made.json.id as number;
      expect(
        (await t.call("PUT", `/teams/${id}/members/${member.name}`, { token: who.owner.token })).status,
      ).toBe(204);
      for (const repo of ["site", "plans"])
        expect(
          (await t.call("PUT", `/teams/${id}/repos/pp-org/${repo}`, { token: who.owner.token })).status,
        ).toBe(204);
    };
    await team("coders", { "repo.code": "write", "repo.issues": "read" }, who.teamWriter);
    await team("viewers", { "repo.code": "read", "repo.issues": "read" }, who.teamReader);
    // A member of the organization through a team that covers no repository.
    const idle = await t.call("POST", "/orgs/pp-org/teams", {
      token: who.owner.token,
      body: { name: "idle", units_map: { "repo.code": "read" }, includes_all_repositories: false },
    });
    expect(
      (await t.call("PUT", `/teams/${idle.json.id}/members/${who.member.name}`, { token: who.owner.token }))
        .status,
    ).toBe(204);
  });
  afterAll(() => t?.close());

  it("lists the owner and writers of a user's repository as assignees, by name", async () => {
    for (const repo of [tools, vault]) {
      const res = await t.call("GET", `${repo.path}/assignees`, { token: who.reader.token });
      expect(res.status).toBe(200);
      expect(names(res)).toEqual([who.owner.name, who.writer.name]);
      expect(res.json[0]).toMatchObject({ id: who.owner.id, login: who.owner.name });
    }
  });

  it("lists readers as reviewers, and for a public repository its watchers too", async () => {
    const open = await t.call("GET", `${tools.path}/reviewers`, { token: who.writer.token });
    expect(open.status).toBe(200);
    expect(names(open)).toEqual([who.owner.name, who.writer.name, who.reader.name, who.watcher.name]);
    const closed = await t.call("GET", `${vault.path}/reviewers`, { token: who.writer.token });
    expect(names(closed)).toEqual([who.owner.name, who.writer.name, who.reader.name]);
  });

  it("counts the organization's teams that cover the repository, and its members for public ones", async () => {
    for (const repo of [orgRepo, orgSecret]) {
      const assignees = await t.call("GET", `${repo.path}/assignees`, { token: who.teamReader.token });
      expect(assignees.status).toBe(200);
      // The owner through the Owners team; the coders write code; the viewers only read.
      expect(names(assignees)).toEqual([who.owner.name, who.teamWriter.name]);
    }
    const open = await t.call("GET", `${orgRepo.path}/reviewers`, { token: who.teamReader.token });
    expect(names(open)).toEqual([who.owner.name, who.member.name, who.teamWriter.name, who.teamReader.name]);
    // Someone outside the organization does not learn who hides their membership there.
    const outside = await t.call("GET", `${orgRepo.path}/reviewers`, { token: who.outsider.token });
    expect(names(outside)).toEqual([who.owner.name, who.teamWriter.name, who.teamReader.name]);
    expect(
      (await t.call("PUT", `/orgs/pp-org/public_members/${who.member.name}`, { token: who.member.token }))
        .status,
    ).toBe(204);
    const shown = await t.call("GET", `${orgRepo.path}/reviewers`, { token: who.outsider.token });
    expect(names(shown)).toEqual([who.owner.name, who.member.name, who.teamWriter.name, who.teamReader.name]);
    const closed = await t.call("GET", `${orgSecret.path}/reviewers`, { token: who.teamReader.token });
    expect(names(closed)).toEqual([who.owner.name, who.teamWriter.name, who.teamReader.name]);
  });

  it("shows a private repository's people to nobody who cannot read it, and needs a sign-in", async () => {
    for (const path of [`${vault.path}/assignees`, `${orgSecret.path}/reviewers`]) {
      expect((await t.call("GET", path, { token: who.outsider.token })).status).toBe(404);
      expect((await t.call("GET", path)).status).toBe(401);
    }
    expect((await t.call("GET", `${tools.path}/assignees`)).status).toBe(401);
    expect((await t.call("GET", `${tools.path}/assignees`, { token: who.outsider.token })).status).toBe(200);
  });
});
