import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { bulkUsers, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("issue subscriptions and reactions on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let poster: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let issuePath = "";
  let commentId = 0;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    poster = await t.user();
    outsider = await t.user();
    admin = await t.user({ admin: true });
    repo = await createRepo(t, owner, "social");
    secret = await createRepo(t, owner, "quiet", { private: true });
    await t.call("POST", `${repo.path}/issues`, { token: poster.token, body: { title: "hello" } });
    await t.call("POST", `${secret.path}/issues`, { token: owner.token, body: { title: "psst" } });
    issuePath = `${repo.path}/issues/1`;
    commentId = (
      await t.call("POST", `${issuePath}/comments`, { token: owner.token, body: { body: "welcome" } })
    ).json.id;
  });
  afterAll(() => t?.close());

  describe("subscriptions", () => {
    const check = (user: TestUser) =>
      t.call("GET", `${issuePath}/subscriptions/check`, { token: user.token });

    it("subscribes the poster and the repository's owner, not bystanders", async () => {
      const mine = await check(poster);
      expect(mine.status).toBe(200);
      expect(mine.json).toMatchObject({
        subscribed: true,
        ignored: false,
        reason: null,
        url: `http://kiln.test/api/v1/repos/${owner.name}/social/issues/1/subscriptions`,
        repository_url: `http://kiln.test/api/v1/repos/${owner.name}/social`,
      });
      expect((await check(owner)).json.subscribed).toBe(true);
      expect((await check(outsider)).json).toMatchObject({ subscribed: false, ignored: true });
      expect((await t.call("GET", `${issuePath}/subscriptions/check`)).status).toBe(401);
    });

    it("answers 201 when a subscription changes and 200 when it was so already", async () => {
      const path = `${issuePath}/subscriptions/${outsider.name}`;
      expect((await t.call("PUT", path, { token: outsider.token })).status).toBe(201);
      expect((await t.call("PUT", path, { token: outsider.token })).status).toBe(200);
      expect((await check(outsider)).json.subscribed).toBe(true);
      const list = await t.call("GET", `${issuePath}/subscriptions`);
      expect(list.json.map((u: { login: string }) => u.login)).toEqual([outsider.name]);
      expect(list.headers.get("X-Total-Count")).toBe("1");
      expect((await t.call("DELETE", path, { token: outsider.token })).status).toBe(201);
      expect((await t.call("DELETE", path, { token: outsider.token })).status).toBe(200);
      expect((await check(outsider)).json.subscribed).toBe(false);
      // An explicit unsubscription wins over taking part.
      const posters = `${issuePath}/subscriptions/${poster.name}`;
      expect((await t.call("DELETE", posters, { token: poster.token })).status).toBe(201);
      expect((await check(poster)).json.subscribed).toBe(false);
    });

    it("lets only the user themselves or a site admin change a subscription", async () => {
      const path = `${issuePath}/subscriptions/${poster.name}`;
      const refused = await t.call("PUT", path, { token: outsider.token });
      expect(refused.status).toBe(403);
      expect(refused.json.message).toBe(
        `${outsider.name} is not permitted to change subscriptions for ${poster.name}`,
      );
      expect((await t.call("PUT", path, { token: admin.token })).status).toBe(201);
      expect((await check(poster)).json.subscribed).toBe(true);
      expect(
        (await t.call("PUT", `${issuePath}/subscriptions/no-such-user`, { token: admin.token })).status,
      ).toBe(404);
      expect((await t.call("PUT", `${issuePath}/subscriptions/${poster.name}`)).status).toBe(401);
    });

    it("lists subscribers unpaged (all, with the total) or a page on request, as Forgejo", async () => {
      const issue = await t.call("POST", `${repo.path}/issues`, {
        token: owner.token,
        body: { title: "popular" },
      });
      await bulkUsers(t.services, `fan-${dialect}`, 35);
      const fans = await t.services.ctx.db
        .selectFrom("users")
        .select("id")
        .where("name", "like", `fan-${dialect}-%`)
        .execute();
      await t.services.ctx.db
        .insertInto("issueWatch")
        .values(fans.map((fan) => ({ issueId: issue.json.id, userId: fan.id, isWatching: true })))
        .execute();
      const path = `${repo.path}/issues/${issue.json.number}/subscriptions`;
      const all = await t.call("GET", path);
      expect(all.json).toHaveLength(35);
      expect(all.headers.get("X-Total-Count")).toBe("35");
      const page = await t.call("GET", `${path}?page=2&limit=30`);
      expect(page.json).toHaveLength(5);
      expect(page.headers.get("Link")).toContain('rel="first"');
    });

    it("notifies subscribers of an edit, and not those who unsubscribed", async () => {
      const watcher = await t.user();
      const notified = async (user: TestUser) =>
        (
          await t.services.ctx.db
            .selectFrom("notification")
            .select("status")
            .where("userId", "=", user.id)
            .execute()
        ).length;
      expect(
        (await t.call("PUT", `${issuePath}/subscriptions/${watcher.name}`, { token: watcher.token })).status,
      ).toBe(201);
      expect(
        (await t.call("DELETE", `${issuePath}/subscriptions/${poster.name}`, { token: poster.token })).status,
      ).toBe(201);
      const before = await notified(poster);
      const edit = await t.call("PATCH", issuePath, { token: owner.token, body: { title: "hello, edited" } });
      expect(edit.status).toBe(201);
      expect(await notified(watcher)).toBe(1);
      expect(await notified(poster)).toBe(before);
      await t.call("PUT", `${issuePath}/subscriptions/${poster.name}`, { token: poster.token });
    });

    it("hides a private repository's issue from outsiders (404)", async () => {
      const path = `${secret.path}/issues/1/subscriptions`;
      expect((await t.call("PUT", `${path}/${outsider.name}`, { token: outsider.token })).status).toBe(404);
      expect((await t.call("GET", `${path}/check`, { token: outsider.token })).status).toBe(404);
      expect((await t.call("GET", path, { token: outsider.token })).status).toBe(404);
      expect((await t.call("GET", `${path}/check`, { token: owner.token })).json.subscribed).toBe(true);
    });
  });

  describe("reactions", () => {
    const react = (path: string, user: TestUser, content: string, method = "POST") =>
      t.call(method, `${path}/reactions`, { token: user.token, body: { content } });
    const commentPath = () => `${repo.path}/issues/comments/${commentId}`;

    it("adds a reaction (201), answers the same one again with 200, and lists them", async () => {
      const first = await react(issuePath, outsider, "+1");
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({ content: "+1", user: { login: outsider.name } });
      expect(first.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      const again = await react(issuePath, outsider, "+1");
      expect(again.status).toBe(200);
      expect(again.json.created_at).toBe(first.json.created_at);
      await react(issuePath, poster, "heart");
      const list = await t.call("GET", `${issuePath}/reactions`);
      expect(list.json.map((r: { content: string }) => r.content)).toEqual(["+1", "heart"]);
      expect(list.headers.get("X-Total-Count")).toBe("2");
      const page = await t.call("GET", `${issuePath}/reactions?page=2&limit=1`);
      expect(page.json.map((r: { content: string }) => r.content)).toEqual(["heart"]);
    });

    it("refuses reactions [ui] REACTIONS does not list with Forgejo's 403", async () => {
      const res = await react(issuePath, outsider, "banana");
      expect(res.status).toBe(403);
      expect(res.json.message).toBe("'banana' is not an allowed reaction");
      expect((await t.call("POST", `${issuePath}/reactions`, { token: outsider.token })).status).toBe(403);
    });

    it("removes the caller's own reaction only (200 even when there was none)", async () => {
      expect((await react(issuePath, outsider, "heart", "DELETE")).status).toBe(200);
      expect((await react(issuePath, outsider, "+1", "DELETE")).status).toBe(200);
      const list = await t.call("GET", `${issuePath}/reactions`);
      expect(
        list.json.map((r: { content: string; user: { login: string } }) => [r.content, r.user.login]),
      ).toEqual([["heart", poster.name]]);
    });

    it("reacts to comments, and drops their reactions with the comment", async () => {
      expect((await react(commentPath(), poster, "laugh")).status).toBe(201);
      expect((await react(commentPath(), poster, "laugh")).status).toBe(200);
      expect((await react(commentPath(), outsider, "rocket")).status).toBe(201);
      const list = await t.call("GET", `${commentPath()}/reactions`);
      expect(list.json.map((r: { content: string }) => r.content)).toEqual(["laugh", "rocket"]);
      expect((await react(commentPath(), outsider, "rocket", "DELETE")).status).toBe(200);
      expect((await t.call("GET", `${commentPath()}/reactions`)).json).toHaveLength(1);
      expect((await t.call("GET", `${repo.path}/issues/comments/999999/reactions`)).status).toBe(404);
      // The issue's own reactions are not the comment's.
      expect((await t.call("GET", `${issuePath}/reactions`)).json).toHaveLength(1);
      expect((await t.call("DELETE", commentPath(), { token: owner.token })).status).toBe(204);
      expect((await t.call("GET", `${commentPath()}/reactions`)).status).toBe(404);
      const left = await t.services.ctx.db
        .selectFrom("reaction")
        .select("id")
        .where("commentId", "=", commentId)
        .execute();
      expect(left).toEqual([]);
    });

    it("needs a signed-in caller to react and hides private repositories (404)", async () => {
      expect((await t.call("POST", `${issuePath}/reactions`, { body: { content: "+1" } })).status).toBe(401);
      expect((await react(`${secret.path}/issues/1`, outsider, "+1")).status).toBe(404);
      expect(
        (await t.call("GET", `${secret.path}/issues/1/reactions`, { token: outsider.token })).status,
      ).toBe(404);
      expect((await t.call("GET", `${secret.path}/issues/1/reactions`)).status).toBe(404);
    });
  });
});
