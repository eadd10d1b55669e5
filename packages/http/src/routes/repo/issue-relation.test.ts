import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

interface ApiIssue {
  number: number;
  title: string;
  pin_order: number;
  is_locked: boolean;
  repository: { full_name: string };
}

describe.each(DIALECTS)("locks, pins and dependencies on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let other: TestRepo;
  let secret: TestRepo;

  const newIssue = async (r: TestRepo, title: string, user: TestUser = owner) =>
    (await t.call("POST", `${r.path}/issues`, { token: user.token, body: { title } })).json.number as number;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "links");
    other = await createRepo(t, owner, "elsewhere");
    secret = await createRepo(t, owner, "secret-plans", { private: true });
    for (const [user, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
    }
    for (let i = 1; i <= 6; i++) await newIssue(repo, `issue ${i}`, i === 1 ? reader : owner);
    await newIssue(other, "over there");
    await newIssue(secret, "top secret blocker");
  });
  afterAll(() => t?.close());

  describe("locking (Gitea's PUT/DELETE …/lock)", () => {
    const lockPath = () => `${repo.path}/issues/1/lock`;

    it("lets writers lock with a known reason; readers get 403 and bad reasons 422", async () => {
      expect((await t.call("PUT", lockPath(), { token: reader.token, body: {} })).status).toBe(403);
      const bad = await t.call("PUT", lockPath(), { token: writer.token, body: { lock_reason: "Because" } });
      expect(bad.status).toBe(422);
      expect(bad.json.message).toContain("Too heated");
      expect(
        (await t.call("PUT", lockPath(), { token: writer.token, body: { lock_reason: "Too heated" } }))
          .status,
      ).toBe(204);
      expect((await t.call("GET", `${repo.path}/issues/1`)).json.is_locked).toBe(true);
      // Locking again is no change (and no second event).
      expect((await t.call("PUT", lockPath(), { token: writer.token })).status).toBe(204);
      const events = await t.services.ctx.db
        .selectFrom("comment")
        .innerJoin("issue", "issue.id", "comment.issueId")
        .select(["comment.type", "comment.content"])
        .where("issue.repoId", "=", repo.id)
        .where("issue.index", "=", 1)
        .where("comment.type", "=", 23)
        .execute();
      expect(events).toEqual([{ type: 23, content: "Too heated" }]);
    });

    it("keeps non-writers from commenting and reacting on a locked issue, writers still may", async () => {
      const comment = await t.call("POST", `${repo.path}/issues/1/comments`, {
        token: reader.token,
        body: { body: "but…" },
      });
      expect(comment.status).toBe(403);
      expect(comment.json.message).toBe("You cannot comment on a locked issue.");
      const react = await t.call("POST", `${repo.path}/issues/1/reactions`, {
        token: outsider.token,
        body: { content: "+1" },
      });
      expect(react.status).toBe(403);
      expect(
        (
          await t.call("POST", `${repo.path}/issues/1/comments`, {
            token: writer.token,
            body: { body: "calm" },
          })
        ).status,
      ).toBe(201);
    });

    it("unlocks for writers, after which everyone may comment again", async () => {
      expect((await t.call("DELETE", lockPath(), { token: reader.token })).status).toBe(403);
      expect((await t.call("DELETE", lockPath(), { token: writer.token })).status).toBe(204);
      expect((await t.call("GET", `${repo.path}/issues/1`)).json.is_locked).toBe(false);
      const comment = await t.call("POST", `${repo.path}/issues/1/comments`, {
        token: reader.token,
        body: { body: "thanks" },
      });
      expect(comment.status).toBe(201);
      expect((await t.call("PUT", `${secret.path}/issues/1/lock`, { token: outsider.token })).status).toBe(
        404,
      );
    });
  });

  describe("pins", () => {
    const pin = (index: number, user: TestUser = owner) =>
      t.call("POST", `${repo.path}/issues/${index}/pin`, { token: user.token });
    const pinned = async () =>
      (await t.call("GET", `${repo.path}/issues/pinned`)).json.map((i: ApiIssue) => [i.number, i.pin_order]);

    it("pins up to [repository.issue] MAX_PINNED issues in order, for repository admins only", async () => {
      expect((await pin(2, writer)).status).toBe(403);
      expect((await t.call("GET", `${repo.path}/new_pin_allowed`)).json).toEqual({
        issues: true,
        pull_requests: true,
      });
      for (const index of [2, 3, 4]) expect((await pin(index)).status).toBe(204);
      expect((await t.call("GET", `${repo.path}/issues/pinned`)).headers.get("X-Total-Count")).toBe("3");
      expect(await pinned()).toEqual([
        [2, 1],
        [3, 2],
        [4, 3],
      ]);
      expect((await pin(3)).status).toBe(204); // already pinned: no change
      const full = await pin(5);
      expect(full.status).toBe(400);
      expect(full.json.message).toBe("the maximum number of pinned issues has been reached");
      expect((await t.call("GET", `${repo.path}/new_pin_allowed`)).json).toEqual({
        issues: false,
        pull_requests: true,
      });
    });

    it("moves a pin, the others making room, and clamps to the last position", async () => {
      expect((await t.call("PATCH", `${repo.path}/issues/4/pin/1`, { token: owner.token })).status).toBe(204);
      expect(await pinned()).toEqual([
        [4, 1],
        [2, 2],
        [3, 3],
      ]);
      expect((await t.call("PATCH", `${repo.path}/issues/4/pin/99`, { token: owner.token })).status).toBe(
        204,
      );
      expect(await pinned()).toEqual([
        [2, 1],
        [3, 2],
        [4, 3],
      ]);
      expect((await t.call("PATCH", `${repo.path}/issues/4/pin/0`, { token: owner.token })).status).toBe(404);
      expect((await t.call("PATCH", `${repo.path}/issues/4/pin/2`, { token: writer.token })).status).toBe(
        403,
      );
    });

    it("unpins and closes the gap", async () => {
      expect((await t.call("DELETE", `${repo.path}/issues/2/pin`, { token: owner.token })).status).toBe(204);
      expect(await pinned()).toEqual([
        [3, 1],
        [4, 2],
      ]);
      expect((await t.call("DELETE", `${repo.path}/issues/2/pin`, { token: owner.token })).status).toBe(204);
      expect((await pin(5)).status).toBe(204);
      expect((await t.call("GET", `${repo.path}/issues/5`)).json.pin_order).toBe(3);
      expect((await t.call("GET", `${secret.path}/issues/pinned`, { token: outsider.token })).status).toBe(
        404,
      );
    });
  });

  describe("dependencies", () => {
    const deps = (index: number, user?: TestUser) =>
      t.call("GET", `${repo.path}/issues/${index}/dependencies`, user ? { token: user.token } : {});
    const blocks = (index: number, user?: TestUser) =>
      t.call("GET", `${repo.path}/issues/${index}/blocks`, user ? { token: user.token } : {});
    const titles = (list: ApiIssue[]) => list.map((i) => i.title);

    it("makes an issue depend on another (201 with the path's issue) and lists both sides", async () => {
      const res = await t.call("POST", `${repo.path}/issues/6/dependencies`, {
        token: writer.token,
        body: { owner: owner.name, repo: "links", index: 5 },
      });
      expect(res.status).toBe(201);
      expect(res.json.number).toBe(6);
      expect(titles((await deps(6)).json)).toEqual(["issue 5"]);
      expect(titles((await blocks(5)).json)).toEqual(["issue 6"]);
      expect((await deps(6)).headers.get("X-Total-Count")).toBe("1");
      // The same through …/blocks: issue 4 blocks issue 6.
      const blocking = await t.call("POST", `${repo.path}/issues/4/blocks`, {
        token: writer.token,
        body: { index: 6 },
      });
      expect(blocking.status).toBe(201);
      expect(blocking.json.number).toBe(4);
      expect(titles((await deps(6)).json)).toEqual(["issue 5", "issue 4"]);
      const page = await t.call("GET", `${repo.path}/issues/6/dependencies?page=2&limit=1`);
      expect(titles(page.json)).toEqual(["issue 4"]);
    });

    it("records the change on both issues' timelines", async () => {
      const rows = await t.services.ctx.db
        .selectFrom("comment")
        .innerJoin("issue", "issue.id", "comment.issueId")
        .select(["issue.index"])
        .where("issue.repoId", "=", repo.id)
        .where("comment.type", "=", 19)
        .orderBy("issue.index")
        .execute();
      expect(rows.map((r) => r.index)).toEqual([4, 5, 6, 6]);
    });

    it("refuses itself, duplicates and cycles with 422, readers with Forgejo's 404", async () => {
      const add = (index: number, body: object, user = writer) =>
        t.call("POST", `${repo.path}/issues/${index}/dependencies`, { token: user.token, body });
      expect((await add(6, { index: 6 })).status).toBe(422);
      const duplicate = await add(6, { index: 5 });
      expect(duplicate.status).toBe(422);
      expect(duplicate.json.message).toBe("issue dependency already exists");
      expect((await add(5, { index: 6 })).status).toBe(422);
      // Forgejo answers 404 when the caller may not write the blocked issue (issue_dependency.go).
      expect((await add(3, { index: 2 }, reader)).status).toBe(404);
      const blocking = await t.call("POST", `${repo.path}/issues/2/blocks`, {
        token: reader.token,
        body: { index: 3 },
      });
      expect(blocking.status).toBe(404);
      expect((await add(3, { index: 999 })).status).toBe(404);
      expect(
        (await t.call("POST", `${repo.path}/issues/3/dependencies`, { body: { index: 2 } })).status,
      ).toBe(401);
    });

    it("keeps an issue open while an open issue blocks it (412)", async () => {
      const close = await t.call("PATCH", `${repo.path}/issues/6`, {
        token: writer.token,
        body: { state: "closed" },
      });
      expect(close.status).toBe(412);
      expect(close.json.message).toBe("cannot close this issue because it still has open dependencies");
      for (const index of [4, 5]) {
        await t.call("PATCH", `${repo.path}/issues/${index}`, {
          token: writer.token,
          body: { state: "closed" },
        });
      }
      const now = await t.call("PATCH", `${repo.path}/issues/6`, {
        token: writer.token,
        body: { state: "closed" },
      });
      expect(now.status).toBe(201);
      expect(now.json.state).toBe("closed");
    });

    it("links across repositories, and never shows a blocker the caller may not read", async () => {
      const cross = await t.call("POST", `${repo.path}/issues/3/dependencies`, {
        token: owner.token,
        body: { owner: owner.name, repo: "elsewhere", index: 1 },
      });
      expect(cross.status).toBe(201);
      const hidden = await t.call("POST", `${repo.path}/issues/3/dependencies`, {
        token: owner.token,
        body: { owner: owner.name, repo: "secret-plans", index: 1 },
      });
      expect(hidden.status).toBe(201);
      const asOwner = (await deps(3, owner)).json as ApiIssue[];
      expect(asOwner.map((i) => i.repository.full_name)).toEqual([
        `${owner.name}/elsewhere`,
        `${owner.name}/secret-plans`,
      ]);
      for (const caller of [outsider, reader, undefined]) {
        const res = await deps(3, caller);
        expect(res.status).toBe(200);
        expect(titles(res.json)).toEqual(["over there"]);
        expect(res.text).not.toContain("secret");
        expect(res.headers.get("X-Total-Count")).toBe("1");
      }
      // An outsider cannot name the private repository's issue either (404, as for a missing one).
      await t.call("PUT", `${other.path}/collaborators/${outsider.name}`, {
        token: owner.token,
        body: { permission: "write" },
      });
      const probe = await t.call("POST", `${other.path}/issues/1/blocks`, {
        token: outsider.token,
        body: { owner: owner.name, repo: "secret-plans", index: 1 },
      });
      expect(probe.status).toBe(404);
      const missing = await t.call("POST", `${other.path}/issues/1/blocks`, {
        token: outsider.token,
        body: { owner: owner.name, repo: "no-such-repo", index: 1 },
      });
      expect(missing.status).toBe(404);
      expect(probe.json.message.replace("secret-plans", "no-such-repo")).toBe(missing.json.message);
    });

    it("removes a dependency (200), and 404 when there is none", async () => {
      const res = await t.call("DELETE", `${repo.path}/issues/3/dependencies`, {
        token: owner.token,
        body: { owner: owner.name, repo: "elsewhere", index: 1 },
      });
      expect(res.status).toBe(200);
      expect(res.json.number).toBe(3);
      const again = await t.call("DELETE", `${repo.path}/issues/3/dependencies`, {
        token: owner.token,
        body: { owner: owner.name, repo: "elsewhere", index: 1 },
      });
      expect(again.status).toBe(404);
      expect(titles((await deps(3, owner)).json)).toEqual(["top secret blocker"]);
    });
  });
});

describe("issue dependencies turned off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp("pglite", { service: { enableDependencies: false } });
  });
  afterAll(() => t?.close());

  it("answers 404 as Forgejo does when [service] DEFAULT_ENABLE_DEPENDENCIES is false", async () => {
    const owner = await t.user();
    const repo = await createRepo(t, owner, "plain");
    await t.call("POST", `${repo.path}/issues`, { token: owner.token, body: { title: "a" } });
    await t.call("POST", `${repo.path}/issues`, { token: owner.token, body: { title: "b" } });
    expect((await t.call("GET", `${repo.path}/issues/1/dependencies`)).status).toBe(404);
    const add = await t.call("POST", `${repo.path}/issues/1/dependencies`, {
      token: owner.token,
      body: { index: 2 },
    });
    expect(add.status).toBe(404);
  });
});
