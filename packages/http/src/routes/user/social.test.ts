import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const names = (list: { login?: string; full_name?: string }[]) => list.map((x) => x.login ?? x.full_name);

describe.each(DIALECTS)("watching, stars and following on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let fan: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    fan = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "shiny");
    secret = await createRepo(t, owner, "vault", { private: true });
    await t.call("PUT", `${secret.path}/collaborators/${fan.name}`, {
      token: owner.token,
      body: { permission: "read" },
    });
  });
  afterAll(() => t?.close());

  describe("watching", () => {
    it("makes the creator of a repository watch it (AUTO_WATCH_NEW_REPOS)", async () => {
      const mine = await t.call("GET", `${repo.path}/subscription`, { token: owner.token });
      expect(mine.status).toBe(200);
      expect(mine.json).toEqual({
        subscribed: true,
        ignored: false,
        reason: null,
        created_at: expect.any(String),
        url: `http://kiln.test/api/v1${repo.path}/subscription`,
        repository_url: `http://kiln.test/api/v1${repo.path}`,
      });
      const shown = await t.call("GET", repo.path, { token: owner.token });
      expect(shown.json.watchers_count).toBe(1);
    });

    it("makes the members of an organization's all-repository teams watch its new repository", async () => {
      const member = await t.user();
      const org = `org-${owner.name}`;
      expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(
        201,
      );
      const teams = await t.call("GET", `/orgs/${org}/teams`, { token: owner.token });
      const owners = teams.json.find((team: { name: string }) => team.name === "Owners");
      expect(
        (await t.call("PUT", `/teams/${owners.id}/members/${member.name}`, { token: owner.token })).status,
      ).toBe(204);
      const made = await t.call("POST", `/orgs/${org}/repos`, {
        token: owner.token,
        body: { name: "team-made" },
      });
      expect(made.status).toBe(201);
      expect((await t.call("GET", `/repos/${org}/team-made`)).json.watchers_count).toBe(2);
      const watchers = await t.call("GET", `/repos/${org}/team-made/subscribers`, { token: owner.token });
      expect(names(watchers.json).sort()).toEqual([owner.name, member.name].sort());
      // An automatic watch undone stays undone.
      const path = `/repos/${org}/team-made/subscription`;
      expect((await t.call("DELETE", path, { token: member.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: member.token })).status).toBe(404);
    });

    it("watches and unwatches, with the watchers' list and count", async () => {
      const path = `${repo.path}/subscription`;
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(404);
      const put = await t.call("PUT", path, { token: fan.token });
      expect(put.status).toBe(200);
      expect(put.json.subscribed).toBe(true);
      expect((await t.call("PUT", path, { token: fan.token })).status).toBe(200);
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(200);
      const list = await t.call("GET", `${repo.path}/subscribers`);
      expect(names(list.json)).toEqual([owner.name, fan.name]);
      expect(list.headers.get("X-Total-Count")).toBe("2");
      expect((await t.call("GET", repo.path)).json.watchers_count).toBe(2);
      const mine = await t.call("GET", "/user/subscriptions", { token: fan.token });
      expect(names(mine.json)).toEqual([`${owner.name}/shiny`]);

      expect((await t.call("DELETE", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(404);
      expect((await t.call("GET", repo.path)).json.watchers_count).toBe(1);
      expect((await t.call("GET", "/user/subscriptions", { token: fan.token })).json).toEqual([]);
      expect((await t.call("PUT", path)).status).toBe(401);
    });

    it("keeps a private repository out of others' sight", async () => {
      expect((await t.call("PUT", `${secret.path}/subscription`, { token: fan.token })).status).toBe(200);
      expect((await t.call("PUT", `${secret.path}/subscription`, { token: outsider.token })).status).toBe(
        404,
      );
      expect((await t.call("GET", `${secret.path}/subscribers`, { token: outsider.token })).status).toBe(404);
      const mine = await t.call("GET", "/user/subscriptions", { token: fan.token });
      expect(names(mine.json)).toEqual([`${owner.name}/vault`]);
      // Another user's list leaves private repositories out, whoever asks.
      const seen = await t.call("GET", `/users/${fan.name}/subscriptions`, { token: owner.token });
      expect(seen.status).toBe(200);
      expect(seen.json).toEqual([]);
      expect(seen.headers.get("X-Total-Count")).toBe("0");
      const ownersList = await t.call("GET", `/users/${owner.name}/subscriptions`);
      expect(names(ownersList.json)).toContain(`${owner.name}/shiny`);
      expect(names(ownersList.json)).not.toContain(`${owner.name}/vault`);
    });
  });

  describe("stars", () => {
    it("stars and unstars with 204, 404 when not starred, and counts both sides", async () => {
      const path = `/user/starred/${owner.name}/shiny`;
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(404);
      expect((await t.call("PUT", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("PUT", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", repo.path)).json.stars_count).toBe(1);
      expect((await t.call("GET", `/users/${fan.name}`)).json.starred_repos_count).toBe(1);
      const gazers = await t.call("GET", `${repo.path}/stargazers`);
      expect(names(gazers.json)).toEqual([fan.name]);
      expect(gazers.headers.get("X-Total-Count")).toBe("1");
      expect(names((await t.call("GET", "/user/starred", { token: fan.token })).json)).toEqual([
        `${owner.name}/shiny`,
      ]);
      expect(names((await t.call("GET", `/users/${fan.name}/starred`)).json)).toEqual([
        `${owner.name}/shiny`,
      ]);
      expect((await t.call("DELETE", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(404);
      expect((await t.call("GET", repo.path)).json.stars_count).toBe(0);
      expect((await t.call("GET", `/users/${fan.name}`)).json.starred_repos_count).toBe(0);
    });

    it("needs the user and repository scopes on /user/starred, as Forgejo's groups", async () => {
      const user = await t.services.users.getByName(fan.name);
      const userOnly = await t.services.tokens.create(user, "user-only", ["write:user"]);
      const both = await t.services.tokens.create(user, "both", ["read:user", "read:repository"]);
      expect((await t.call("GET", "/user/starred", { token: userOnly.secret })).status).toBe(403);
      expect((await t.call("GET", "/user/starred", { token: both.secret })).status).toBe(200);
      const path = `/user/starred/${owner.name}/shiny`;
      expect((await t.call("PUT", path, { token: both.secret })).status).toBe(403);
    });

    it("never shows a private repository to someone who cannot read it", async () => {
      const path = `/user/starred/${owner.name}/vault`;
      expect((await t.call("PUT", path, { token: outsider.token })).status).toBe(404);
      expect((await t.call("PUT", path, { token: fan.token })).status).toBe(204);
      expect(names((await t.call("GET", "/user/starred", { token: fan.token })).json)).toEqual([
        `${owner.name}/vault`,
      ]);
      for (const viewer of [outsider.token, owner.token, undefined]) {
        const list = await t.call("GET", `/users/${fan.name}/starred`, viewer ? { token: viewer } : {});
        expect(list.json).toEqual([]);
      }
      expect((await t.call("GET", `${secret.path}/stargazers`)).status).toBe(404);
      expect(names((await t.call("GET", `${secret.path}/stargazers`, { token: owner.token })).json)).toEqual([
        fan.name,
      ]);
    });
  });

  describe("following", () => {
    it("follows and unfollows, with both lists and counters", async () => {
      const path = `/user/following/${owner.name}`;
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(404);
      expect((await t.call("PUT", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("PUT", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", `/users/${fan.name}/following/${owner.name}`)).status).toBe(204);
      expect((await t.call("GET", `/users/${owner.name}/following/${fan.name}`)).status).toBe(404);
      const followers = await t.call("GET", `/users/${owner.name}/followers`);
      expect(names(followers.json)).toEqual([fan.name]);
      expect(followers.headers.get("X-Total-Count")).toBe("1");
      expect(names((await t.call("GET", "/user/followers", { token: owner.token })).json)).toEqual([
        fan.name,
      ]);
      expect(names((await t.call("GET", "/user/following", { token: fan.token })).json)).toEqual([
        owner.name,
      ]);
      expect(names((await t.call("GET", `/users/${fan.name}/following`)).json)).toEqual([owner.name]);
      expect((await t.call("GET", `/users/${owner.name}`)).json.followers_count).toBe(1);
      expect((await t.call("GET", `/users/${fan.name}`)).json.following_count).toBe(1);
      expect((await t.call("DELETE", path, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: fan.token })).status).toBe(404);
      expect((await t.call("GET", `/users/${owner.name}`)).json.followers_count).toBe(0);
      expect((await t.call("GET", `/users/${fan.name}`)).json.following_count).toBe(0);
    });

    it("ignores following oneself and answers 404 for unknown or hidden users", async () => {
      expect((await t.call("PUT", `/user/following/${fan.name}`, { token: fan.token })).status).toBe(204);
      expect((await t.call("GET", "/user/following", { token: fan.token })).json).toEqual([]);
      expect((await t.call("PUT", "/user/following/nobody-at-all", { token: fan.token })).status).toBe(404);
      const hidden = await t.user({ visibility: "private" });
      expect((await t.call("PUT", `/user/following/${hidden.name}`, { token: fan.token })).status).toBe(404);
      // A private user may follow others, and is not shown to those who cannot see them.
      expect((await t.call("PUT", `/user/following/${owner.name}`, { token: hidden.token })).status).toBe(
        204,
      );
      expect((await t.call("GET", `/users/${owner.name}/followers`)).json).toEqual([]);
      expect(
        names((await t.call("GET", `/users/${owner.name}/followers`, { token: hidden.token })).json),
      ).toEqual([hidden.name]);
      expect((await t.call("GET", `/users/${hidden.name}/following`)).status).toBe(404);
      expect((await t.call("GET", "/user/followers")).status).toBe(401);
    });
  });
  describe("counters when things go", () => {
    it("recounts stars, watchers and follows when a repository or an account is deleted", async () => {
      const admin = await t.user({ admin: true });
      const leaving = await t.user();
      const doomed = await createRepo(t, owner, "doomed");
      const byLeaving = await createRepo(t, leaving, "left-behind");
      expect(
        (await t.call("PUT", `/user/starred/${owner.name}/doomed`, { token: leaving.token })).status,
      ).toBe(204);
      expect(
        (await t.call("PUT", `/user/starred/${leaving.name}/left-behind`, { token: fan.token })).status,
      ).toBe(204);
      expect(
        (await t.call("PUT", `/user/starred/${owner.name}/shiny`, { token: leaving.token })).status,
      ).toBe(204);
      expect((await t.call("PUT", `${repo.path}/subscription`, { token: leaving.token })).status).toBe(200);
      expect((await t.call("PUT", `/user/following/${owner.name}`, { token: leaving.token })).status).toBe(
        204,
      );
      expect((await t.call("PUT", `/user/following/${leaving.name}`, { token: fan.token })).status).toBe(204);
      const count = async (path: string, field: string) =>
        (await t.call("GET", path, { token: admin.token })).json[field];
      const fanStars = await count(`/users/${fan.name}`, "starred_repos_count");
      const shinyStars = await count(repo.path, "stars_count");
      const shinyWatchers = await count(repo.path, "watchers_count");
      const ownerFollowers = await count(`/users/${owner.name}`, "followers_count");
      const fanFollowing = await count(`/users/${fan.name}`, "following_count");
      expect(await count(`/users/${leaving.name}`, "starred_repos_count")).toBe(2);

      expect((await t.call("DELETE", doomed.path, { token: owner.token })).status).toBe(204);
      expect(await count(`/users/${leaving.name}`, "starred_repos_count")).toBe(1);

      // The account goes with its repository (purge).
      expect(
        (await t.call("DELETE", `/admin/users/${leaving.name}?purge=true`, { token: admin.token })).status,
      ).toBe(204);
      expect(byLeaving.id).toBeGreaterThan(0);
      expect(await count(`/users/${fan.name}`, "starred_repos_count")).toBe(fanStars - 1);
      expect(await count(repo.path, "stars_count")).toBe(shinyStars - 1);
      expect(await count(repo.path, "watchers_count")).toBe(shinyWatchers - 1);
      expect(await count(`/users/${owner.name}`, "followers_count")).toBe(ownerFollowers - 1);
      expect(await count(`/users/${fan.name}`, "following_count")).toBe(fanFollowing - 1);
    });
  });
});
