import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

interface Time {
  id: number;
  time: number;
  user_name: string;
  issue_id: number;
  issue: { number: number; title: string } | null;
}

describe.each(DIALECTS)("tracked time and stopwatches on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  /** Posted by the reader (who may track time on it) and by the owner. */
  let readersIssue = "";
  let ownersIssue = "";

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    admin = await t.user({ admin: true });
    repo = await createRepo(t, owner, "clock");
    secret = await createRepo(t, owner, "vault", { private: true });
    for (const [user, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
    }
    await t.call("POST", `${repo.path}/issues`, { token: reader.token, body: { title: "reader's" } });
    await t.call("POST", `${repo.path}/issues`, { token: owner.token, body: { title: "owner's" } });
    readersIssue = `${repo.path}/issues/1`;
    ownersIssue = `${repo.path}/issues/2`;
  });
  afterAll(() => t?.close());

  const add = (path: string, user: TestUser, body: Record<string, unknown>) =>
    t.call("POST", `${path}/times`, { token: user.token, body });

  describe("adding and listing", () => {
    it("adds time for the issue's contributors (200 with the issue) and refuses everyone else", async () => {
      const added = await add(ownersIssue, writer, { time: 3600 });
      expect(added.status).toBe(200);
      expect(added.json).toMatchObject({ time: 3600, user_name: writer.name, user_id: writer.id });
      expect(added.json.issue).toMatchObject({ number: 2, title: "owner's" });
      expect(added.json.issue_id).toBe(added.json.issue.id);
      // The poster tracks time on their own issue, not on others'.
      expect((await add(readersIssue, reader, { time: 60 })).status).toBe(200);
      expect((await add(ownersIssue, reader, { time: 60 })).status).toBe(403);
      expect((await add(ownersIssue, outsider, { time: 60 })).status).toBe(403);
      expect((await t.call("POST", `${ownersIssue}/times`, { body: { time: 60 } })).status).toBe(401);
      // An outsider never learns that a private repository's issue exists.
      await t.call("POST", `${secret.path}/issues`, { token: owner.token, body: { title: "hidden" } });
      expect((await add(`${secret.path}/issues/1`, outsider, { time: 60 })).status).toBe(404);
    });

    it("refuses a missing, zero or absurd time with 422", async () => {
      for (const body of [{}, { time: 0 }, { time: -5 }, { time: "60" }, { time: 1e12 }]) {
        const res = await add(ownersIssue, writer, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.json.message).toBeTruthy();
      }
    });

    it("keeps the given creation time and lets an admin add time for someone else", async () => {
      const created = "2026-01-02T03:04:05Z";
      const res = await add(ownersIssue, admin, { time: 120, created, user_name: writer.name });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ created, user_name: writer.name, time: 120 });
      // A non-admin naming someone else still adds their own time, as Forgejo does.
      const own = await add(readersIssue, reader, { time: 30, user_name: writer.name });
      expect(own.json.user_name).toBe(reader.name);
    });

    it("records Go's zero creation time (what the Go SDK sends when none is set) as now", async () => {
      const before = Date.now() - 1000;
      const res = await add(`${secret.path}/issues/1`, owner, {
        time: 5,
        created: "0001-01-01T00:00:00Z",
        user_name: null,
      });
      expect(res.status).toBe(200);
      expect(Date.parse(res.json.created)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(res.json.created)).toBeLessThanOrEqual(Date.now() + 1000);
      for (const created of ["1900-01-01T00:00:00Z", "2026-02-29T00:00:00Z"]) {
        const refused = await add(`${secret.path}/issues/1`, owner, { time: 5, created });
        expect(refused.status, created).toBe(422);
      }
    });

    it("shows writers every time on an issue and other readers only their own", async () => {
      const all = await t.call("GET", `${readersIssue}/times`, { token: writer.token });
      expect(all.status).toBe(200);
      expect(all.json.map((x: Time) => x.user_name).sort()).toEqual([reader.name, reader.name]);
      expect(all.headers.get("X-Total-Count")).toBe("2");
      const paged = await t.call("GET", `${readersIssue}/times?page=2&limit=1`, { token: writer.token });
      expect(paged.json).toHaveLength(1);
      expect(paged.headers.get("Link")).toContain('rel="first"');
      const mine = await t.call("GET", `${ownersIssue}/times`, { token: reader.token });
      expect(mine.json).toEqual([]);
      const asked = await t.call("GET", `${ownersIssue}/times?user=${writer.name}`, { token: reader.token });
      expect(asked.status).toBe(403);
      expect(asked.json.message).toBe("query by user not allowed; not enough rights");
      const unknown = await t.call("GET", `${ownersIssue}/times?user=nobody-here`, { token: writer.token });
      expect(unknown.status).toBe(404);
      const filtered = await t.call("GET", `${ownersIssue}/times?user=${writer.name}`, {
        token: writer.token,
      });
      expect(filtered.json.map((x: Time) => x.time).sort()).toEqual([120, 3600]);
      const since = await t.call("GET", `${ownersIssue}/times?since=2026-06-01T00:00:00Z`, {
        token: writer.token,
      });
      expect(since.json.map((x: Time) => x.time)).toEqual([3600]);
      expect(
        (await t.call("GET", `${ownersIssue}/times?since=yesterday`, { token: writer.token })).status,
      ).toBe(422);
      expect((await t.call("GET", `${ownersIssue}/times`)).status).toBe(401);
    });

    it("lists a repository's times for writers of its issues, and only one's own for others", async () => {
      const all = await t.call("GET", `${repo.path}/times`, { token: owner.token });
      expect(all.json).toHaveLength(4);
      expect(all.headers.get("X-Total-Count")).toBe("4");
      // Forgejo's ListTrackedTimesByRepository: issue writers see everyone's and may filter by user.
      const writers = await t.call("GET", `${repo.path}/times`, { token: writer.token });
      expect(writers.json.map((x: Time) => x.user_name).sort()).toEqual(
        [reader.name, reader.name, writer.name, writer.name].sort(),
      );
      const byReader = await t.call("GET", `${repo.path}/times?user=${reader.name}`, { token: writer.token });
      expect(byReader.status).toBe(200);
      expect(byReader.json.map((x: Time) => x.time).sort()).toEqual([30, 60]);
      const readers = await t.call("GET", `${repo.path}/times`, { token: reader.token });
      expect(readers.json.map((x: Time) => x.user_name)).toEqual([reader.name, reader.name]);
      const asked = await t.call("GET", `${repo.path}/times?user=${writer.name}`, { token: reader.token });
      expect(asked.status).toBe(403);
      const byUser = await t.call("GET", `${repo.path}/times/${reader.name}`, { token: owner.token });
      expect(byUser.json.map((x: Time) => x.time).sort()).toEqual([30, 60]);
      // The older …/times/{user} is for repository admins (ListTrackedTimesByUser).
      expect((await t.call("GET", `${repo.path}/times/${reader.name}`, { token: writer.token })).status).toBe(
        403,
      );
      expect((await t.call("GET", `${secret.path}/times`, { token: outsider.token })).status).toBe(404);
    });

    it("answers anonymous callers 404 for a private repository's times and 401 for a public one's", async () => {
      // Forgejo resolves the repository (repoAssignment) before it asks for a token (reqToken).
      for (const path of [
        `${secret.path}/times`,
        `${secret.path}/times/${owner.name}`,
        `${secret.path}/issues/1/times`,
      ]) {
        expect((await t.call("GET", path)).status, path).toBe(404);
      }
      for (const path of [`${repo.path}/times`, `${repo.path}/times/${owner.name}`, `${ownersIssue}/times`]) {
        const res = await t.call("GET", path);
        expect(res.status, path).toBe(401);
        expect(res.json.message).toBe("token is required");
      }
    });

    it("lists the caller's own times across the repositories they can still see", async () => {
      await t.call("PUT", `${secret.path}/collaborators/${writer.name}`, {
        token: owner.token,
        body: { permission: "write" },
      });
      expect((await add(`${secret.path}/issues/1`, writer, { time: 900 })).status).toBe(200);
      const before = await t.call("GET", "/user/times", { token: writer.token });
      expect(before.json.map((x: Time) => x.time).sort((a: number, b: number) => a - b)).toEqual([
        120, 900, 3600,
      ]);
      await t.call("DELETE", `${secret.path}/collaborators/${writer.name}`, { token: owner.token });
      const after = await t.call("GET", "/user/times", { token: writer.token });
      expect(after.json.map((x: Time) => x.time).sort((a: number, b: number) => a - b)).toEqual([120, 3600]);
      expect(after.headers.get("X-Total-Count")).toBe("2");
      expect(JSON.stringify(after.json)).not.toContain("hidden");
      expect((await t.call("GET", "/user/times")).status).toBe(401);
    });
  });

  describe("callers' own lists", () => {
    it("show times and stopwatches only on issues the caller still reads, never through a public-only token", async () => {
      const org = `clock-org-${dialect}`;
      expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(
        201,
      );
      await t.call("POST", `/orgs/${org}/repos`, {
        token: owner.token,
        body: { name: "work", private: true },
      });
      await t.call("POST", `/repos/${org}/work/issues`, { token: owner.token, body: { title: "unit work" } });
      const team = await t.call("POST", `/orgs/${org}/teams`, {
        token: owner.token,
        body: { name: "workers", units_map: { "repo.code": "write", "repo.issues": "write" } },
      });
      const worker = await t.user();
      await t.call("PUT", `/teams/${team.json.id}/members/${worker.name}`, { token: owner.token });
      await t.call("PUT", `/teams/${team.json.id}/repos/${org}/work`, { token: owner.token });
      const issue = `/repos/${org}/work/issues/1`;
      expect((await add(issue, worker, { time: 42 })).status).toBe(200);
      expect((await t.call("POST", `${issue}/stopwatch/start`, { token: worker.token })).status).toBe(201);
      const mine = async (token: string) => {
        const times = await t.call("GET", "/user/times", { token });
        const watches = await t.call("GET", "/user/stopwatches", { token });
        return {
          times: times.json.map((x: Time) => x.time),
          total: times.headers.get("X-Total-Count"),
          watches: watches.json.length,
          watchTotal: watches.headers.get("X-Total-Count"),
          text: times.text + watches.text,
        };
      };
      expect(await mine(worker.token)).toMatchObject({
        times: [42],
        total: "1",
        watches: 1,
        watchTotal: "1",
      });
      const workerUser = await t.services.users.getByName(worker.name);
      const { secret: publicOnly } = await t.services.tokens.create(workerUser, "public-only", [
        "public-only",
        "all",
      ]);
      expect(await mine(publicOnly)).toMatchObject({ times: [], total: "0", watches: 0, watchTotal: "0" });
      // The team keeps the code but loses the issues: the repository stays visible, its issues do not.
      const edited = await t.call("PATCH", `/teams/${team.json.id}`, {
        token: owner.token,
        body: { name: "workers", units_map: { "repo.code": "write" } },
      });
      expect(edited.status).toBe(200);
      expect((await t.call("GET", `/repos/${org}/work`, { token: worker.token })).status).toBe(200);
      const after = await mine(worker.token);
      expect(after).toMatchObject({ times: [], total: "0", watches: 0, watchTotal: "0" });
      expect(after.text).not.toContain("unit work");
      expect((await t.call("GET", `/repos/${org}/work/times`, { token: worker.token })).status).toBe(404);
      expect((await t.call("GET", `${issue}/times`, { token: worker.token })).status).toBe(404);
    });
  });

  describe("deleting", () => {
    it("deletes one's own time; others' are 403, unknown ids 404, never 500", async () => {
      const mine = await add(ownersIssue, writer, { time: 5 });
      expect(
        (await t.call("DELETE", `${ownersIssue}/times/${mine.json.id}`, { token: reader.token })).status,
      ).toBe(403);
      expect((await t.call("DELETE", `${ownersIssue}/times/999999`, { token: writer.token })).status).toBe(
        404,
      );
      expect(
        (await t.call("DELETE", `${readersIssue}/times/${mine.json.id}`, { token: writer.token })).status,
      ).toBe(404);
      expect(
        (await t.call("DELETE", `${ownersIssue}/times/${mine.json.id}`, { token: writer.token })).status,
      ).toBe(204);
      expect(
        (await t.call("DELETE", `${ownersIssue}/times/${mine.json.id}`, { token: writer.token })).status,
      ).toBe(404);
      const list = await t.call("GET", `${ownersIssue}/times`, { token: writer.token });
      expect(list.json.map((x: Time) => x.id)).not.toContain(mine.json.id);
    });

    it("resets the caller's times on an issue, leaving others' alone", async () => {
      await add(ownersIssue, owner, { time: 10 });
      expect((await t.call("DELETE", `${ownersIssue}/times`, { token: writer.token })).status).toBe(204);
      const left = await t.call("GET", `${ownersIssue}/times`, { token: owner.token });
      expect(left.json.map((x: Time) => x.user_name)).toEqual([owner.name]);
      const again = await t.call("DELETE", `${ownersIssue}/times`, { token: writer.token });
      expect(again.status).toBe(404);
      // The timeline tells what was taken away, in Forgejo's words (util.SecToTime).
      const timeline = await t.call("GET", `${ownersIssue}/timeline`, { token: owner.token });
      const bodies = (type: string) =>
        timeline.json.filter((e: { type: string }) => e.type === type).map((e: { body: string }) => e.body);
      expect(bodies("delete_time_manual")).toEqual(["5 seconds", "1 hour 2 minutes"]);
      expect(bodies("add_time_manual")).toContain("1 hour");
    });
  });

  describe("stopwatches", () => {
    const sw = (user: TestUser, action: "start" | "stop" | "delete", path = readersIssue) =>
      t.call(action === "delete" ? "DELETE" : "POST", `${path}/stopwatch/${action}`, { token: user.token });

    it("starts once (409 after), shows it to its user and records its time when stopped", async () => {
      expect((await sw(writer, "start")).status).toBe(201);
      expect((await sw(writer, "start")).status).toBe(409);
      const running = await t.call("GET", "/user/stopwatches", { token: writer.token });
      expect(running.json).toHaveLength(1);
      expect(running.json[0]).toMatchObject({
        issue_index: 1,
        issue_title: "reader's",
        repo_owner_name: owner.name,
        repo_name: "clock",
      });
      expect(running.json[0].seconds).toBeGreaterThanOrEqual(0);
      expect(typeof running.json[0].duration).toBe("string");
      expect((await t.call("GET", "/user/stopwatches", { token: reader.token })).json).toEqual([]);
      const before = (
        await t.call("GET", `${readersIssue}/times?user=${writer.name}`, { token: writer.token })
      ).json;
      expect((await sw(writer, "stop")).status).toBe(201);
      expect((await sw(writer, "stop")).status).toBe(409);
      const after = (
        await t.call("GET", `${readersIssue}/times?user=${writer.name}`, { token: writer.token })
      ).json;
      expect(after).toHaveLength(before.length + 1);
      expect((await t.call("GET", "/user/stopwatches", { token: writer.token })).json).toEqual([]);
    });

    it("discards a stopwatch without recording time; 409 when none runs", async () => {
      expect((await sw(writer, "delete")).status).toBe(409);
      await sw(writer, "start");
      const before = (await t.call("GET", `${readersIssue}/times`, { token: writer.token })).json.length;
      expect((await sw(writer, "delete")).status).toBe(204);
      expect((await t.call("GET", `${readersIssue}/times`, { token: writer.token })).json).toHaveLength(
        before,
      );
    });

    it("runs one stopwatch per user: starting another stops the first and records it", async () => {
      await sw(writer, "start", readersIssue);
      expect((await sw(writer, "start", ownersIssue)).status).toBe(201);
      const running = await t.call("GET", "/user/stopwatches", { token: writer.token });
      expect(running.json.map((s: { issue_index: number }) => s.issue_index)).toEqual([2]);
      expect((await sw(writer, "stop", readersIssue)).status).toBe(409);
      expect((await sw(writer, "delete", ownersIssue)).status).toBe(204);
    });

    it("is for writers only: readers 403, outsiders of a private repository 404", async () => {
      expect((await sw(reader, "start")).status).toBe(403);
      expect((await sw(outsider, "start", `${secret.path}/issues/1`)).status).toBe(404);
      expect((await t.call("POST", `${readersIssue}/stopwatch/start`)).status).toBe(401);
    });
  });

  describe("long lists", () => {
    it("answers an issue's and a repository's times unpaged (all, with the total) or a page on request", async () => {
      const issue = await t.call("POST", `${repo.path}/issues`, {
        token: owner.token,
        body: { title: "timed" },
      });
      const rows = Array.from({ length: 35 }, (_, i) => ({
        issueId: issue.json.id,
        userId: owner.id,
        time: i + 1,
      }));
      await t.services.ctx.db.insertInto("trackedTime").values(rows).execute();
      const path = `${repo.path}/issues/${issue.json.number}/times`;
      const all = await t.call("GET", path, { token: owner.token });
      expect(all.json).toHaveLength(35);
      expect(all.headers.get("X-Total-Count")).toBe("35");
      const page = await t.call("GET", `${path}?page=2&limit=30`, { token: owner.token });
      expect(page.json.map((x: Time) => x.time)).toEqual([31, 32, 33, 34, 35]);
      const mine = await t.call("GET", `/user/times`, { token: owner.token });
      expect(mine.json.length).toBeGreaterThanOrEqual(35);
      expect(mine.headers.get("X-Total-Count")).toBe(String(mine.json.length));
      const repoTimes = await t.call("GET", `${repo.path}/times?user=${owner.name}`, { token: owner.token });
      expect(repoTimes.json.length).toBeGreaterThanOrEqual(35);
      expect(repoTimes.headers.get("X-Total-Count")).toBe(String(repoTimes.json.length));
    });
  });
});

describe("tracked time with [service] ENABLE_TIMETRACKING off", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp("pglite", { service: { enableTimetracking: false } });
  });
  afterAll(() => t?.close());

  it("answers Forgejo's 404 on lists and 400 on changes", async () => {
    const owner = await t.user();
    const repo = await createRepo(t, owner, "untimed");
    await t.call("POST", `${repo.path}/issues`, { token: owner.token, body: { title: "x" } });
    const list = await t.call("GET", `${repo.path}/issues/1/times`, { token: owner.token });
    expect(list.status).toBe(404);
    const added = await t.call("POST", `${repo.path}/issues/1/times`, {
      token: owner.token,
      body: { time: 5 },
    });
    expect(added.status).toBe(400);
    expect(added.json.message).toBe("time tracking disabled");
    expect(
      (await t.call("POST", `${repo.path}/issues/1/stopwatch/start`, { token: owner.token })).status,
    ).toBe(400);
  });
});
