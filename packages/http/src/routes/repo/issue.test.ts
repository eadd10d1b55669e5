import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("issues on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let org: string;
  let orgRepo: string;
  const labelIds: Record<string, number> = {};
  let milestoneId = 0;

  const create = (path: string, token: string, body: Record<string, unknown>) =>
    t.call("POST", `${path}/issues`, { token, body });
  const titles = (json: { title: string }[]) => json.map((issue) => issue.title);

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "tracker");
    secret = await createRepo(t, owner, "secret", { private: true });
    for (const [user, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      for (const r of [repo, secret]) {
        const res = await t.call("PUT", `${r.path}/collaborators/${user.name}`, {
          token: owner.token,
          body: { permission },
        });
        expect(res.status).toBe(204);
      }
    }
    for (const name of ["bug", "ui"]) {
      labelIds[name] = (
        await t.call("POST", `${repo.path}/labels`, { token: owner.token, body: { name, color: "ee0701" } })
      ).json.id;
    }
    milestoneId = (
      await t.call("POST", `${repo.path}/milestones`, { token: owner.token, body: { title: "v1" } })
    ).json.id;
    org = `issues-org-${dialect}`;
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(201);
    labelIds.triage = (
      await t.call("POST", `/orgs/${org}/labels`, {
        token: owner.token,
        body: { name: "triage", color: "123456" },
      })
    ).json.id;
    orgRepo = `/repos/${org}/orgrepo`;
    expect(
      (await t.call("POST", `/orgs/${org}/repos`, { token: owner.token, body: { name: "orgrepo" } })).status,
    ).toBe(201);
  });
  afterAll(() => t?.close());

  describe("create", () => {
    it("numbers issues in order and answers Forgejo's Issue", async () => {
      const first = await create(repo.path, writer.token, {
        title: "  First issue  ",
        body: `Hello @${reader.name}`,
        labels: [labelIds.bug, labelIds.ui],
        milestone: milestoneId,
        assignees: [writer.name],
        due_date: "2031-02-03T10:00:00+05:00",
      });
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({
        number: 1,
        title: "First issue",
        body: `Hello @${reader.name}`,
        state: "open",
        comments: 0,
        is_locked: false,
        closed_at: null,
        due_date: "2031-02-03T05:00:00Z",
        pull_request: null,
        original_author: "",
        assets: [],
        pin_order: 0,
        repository: { name: "tracker", owner: owner.name, full_name: `${owner.name}/tracker` },
        url: `http://kiln.test/api/v1/repos/${owner.name}/tracker/issues/1`,
        html_url: `http://kiln.test/${owner.name}/tracker/issues/1`,
      });
      expect(first.json.user.login).toBe(writer.name);
      expect(first.json.labels.map((l: { name: string }) => l.name)).toEqual(["bug", "ui"]);
      expect(first.json.milestone).toMatchObject({ id: milestoneId, open_issues: 1, closed_issues: 0 });
      expect(first.json.assignee.login).toBe(writer.name);
      expect(first.json.assignees.map((u: { login: string }) => u.login)).toEqual([writer.name]);
      const second = await create(repo.path, reader.token, { title: "second" });
      expect(second.json.number).toBe(2);
      expect(second.json.assignees).toBeNull();
    });

    it("drops labels, milestone, assignees and due date from non-writers but lets them create closed issues", async () => {
      const res = await create(repo.path, reader.token, {
        title: "by a reader",
        labels: [labelIds.bug],
        milestone: milestoneId,
        assignees: [writer.name],
        due_date: "2031-01-01T00:00:00Z",
        closed: true,
      });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        labels: [],
        milestone: null,
        assignees: null,
        due_date: null,
        state: "closed",
      });
      expect(res.json.closed_at).not.toBeNull();
    });

    it("takes organization labels on an organization's repository and ignores labels of other places", async () => {
      const res = await create(orgRepo, owner.token, {
        title: "org issue",
        labels: [labelIds.triage, labelIds.bug],
      });
      expect(res.json.labels.map((l: { name: string; url: string }) => [l.name, l.url])).toEqual([
        ["triage", `http://kiln.test/api/v1/orgs/${org}/labels/${labelIds.triage}`],
      ]);
    });

    it("refuses a missing title and unknown or unassignable assignees with 422, anonymous callers with 401", async () => {
      expect((await create(repo.path, writer.token, { body: "x" })).json.message).toBe("[Title]: Required");
      const unknown = await create(repo.path, writer.token, { title: "x", assignees: ["nobody-here"] });
      expect(unknown.status).toBe(422);
      expect(unknown.json.message).toBe(
        "Assignee does not exist: [name: user does not exist [uid: 0, name: nobody-here]]",
      );
      const noAccess = await create(secret.path, writer.token, { title: "x", assignees: [outsider.name] });
      expect(noAccess.status).toBe(422);
      expect(noAccess.json.message).toMatch(
        /^user doesn't have access to repo \[user_id: \d+, repo_name: secret\]$/,
      );
      expect((await t.call("POST", `${repo.path}/issues`, { body: { title: "x" } })).status).toBe(401);
    });

    it("cuts long titles at 255 bytes with an ellipsis", async () => {
      const res = await create(repo.path, writer.token, { title: "é".repeat(200) });
      expect(Buffer.byteLength(res.json.title)).toBeLessThanOrEqual(255);
      expect(res.json.title.endsWith("…")).toBe(true);
    });
  });

  describe("read", () => {
    it("gets an issue by number; 404 for unknown numbers and for private repositories to outsiders", async () => {
      expect((await t.call("GET", `${repo.path}/issues/1`)).json.title).toBe("First issue");
      expect((await t.call("GET", `${repo.path}/issues/999`)).status).toBe(404);
      const hidden = await create(secret.path, owner.token, { title: "secret plans" });
      expect(hidden.status).toBe(201);
      for (const token of [outsider.token, undefined]) {
        expect((await t.call("GET", `${secret.path}/issues/1`, { token })).status).toBe(404);
        expect((await t.call("GET", `${secret.path}/issues`, { token })).status).toBe(404);
      }
      expect((await t.call("GET", `${secret.path}/issues/1`, { token: reader.token })).json.title).toBe(
        "secret plans",
      );
    });

    it("counts open issues on the repository", async () => {
      const res = await t.call("GET", repo.path, { token: owner.token });
      const open = (await t.call("GET", `${repo.path}/issues?state=open&limit=50`)).json.length;
      expect(res.json.open_issues_count).toBe(open);
      expect(res.json.open_pr_counter).toBe(0);
    });
  });

  describe("list", () => {
    it("lists open issues newest first by default, with X-Total-Count and Link", async () => {
      const res = await t.call("GET", `${repo.path}/issues?limit=2`);
      expect(res.status).toBe(200);
      expect(res.json.every((i: { state: string }) => i.state === "open")).toBe(true);
      const numbers = res.json.map((i: { number: number }) => i.number);
      expect(numbers).toEqual([...numbers].sort((a: number, b: number) => b - a));
      expect(Number(res.headers.get("X-Total-Count"))).toBeGreaterThan(2);
      expect(res.headers.get("Link")).toContain('rel="next"');
      const oldest = await t.call("GET", `${repo.path}/issues?state=all&sort=oldest&limit=1`);
      expect(oldest.json[0].number).toBe(1);
      expect(
        (await t.call("GET", `${repo.path}/issues?state=closed`)).json.map((i: { title: string }) => i.title),
      ).toEqual(["by a reader"]);
    });

    it("filters by labels (every name given), milestones (name or id), poster, assignee, mention and words", async () => {
      expect(titles((await t.call("GET", `${repo.path}/issues?labels=bug,ui`)).json)).toEqual([
        "First issue",
      ]);
      expect(titles((await t.call("GET", `${repo.path}/issues?labels=bug,nope`)).json)).toEqual([
        "First issue",
      ]);
      expect(titles((await t.call("GET", `${repo.path}/issues?milestones=v1`)).json)).toEqual([
        "First issue",
      ]);
      expect(titles((await t.call("GET", `${repo.path}/issues?milestones=${milestoneId}`)).json)).toEqual([
        "First issue",
      ]);
      expect(
        titles((await t.call("GET", `${repo.path}/issues?created_by=${reader.name}&state=all`)).json),
      ).toEqual(["by a reader", "second"]);
      expect(titles((await t.call("GET", `${repo.path}/issues?assigned_by=${writer.name}`)).json)).toEqual([
        "First issue",
      ]);
      expect(titles((await t.call("GET", `${repo.path}/issues?mentioned_by=${reader.name}`)).json)).toEqual([
        "First issue",
      ]);
      expect(titles((await t.call("GET", `${repo.path}/issues?q=seco`)).json)).toEqual(["second"]);
      expect(titles((await t.call("GET", `${orgRepo}/issues?labels=triage`)).json)).toEqual(["org issue"]);
      const unknownUser = await t.call("GET", `${repo.path}/issues?created_by=ghost-of-nobody`);
      expect(unknownUser.status).toBe(404);
      expect(unknownUser.json.message).toBe("user does not exist [uid: 0, name: ghost-of-nobody]");
      const badTime = await t.call("GET", `${repo.path}/issues?since=yesterday`);
      expect(badTime.status).toBe(422);
      expect(badTime.json.message).toMatch(/^parsing time "yesterday"/);
      const window = await t.call(
        "GET",
        `${repo.path}/issues?since=2000-01-01T00:00:00Z&before=2001-01-01T00:00:00Z`,
      );
      expect(window.json).toEqual([]);
    });
  });

  describe("edit", () => {
    it("lets the poster change title, body and state (201), closing sets closed_at and reopening clears it", async () => {
      const issue = await create(repo.path, reader.token, { title: "mine" });
      const path = `${repo.path}/issues/${issue.json.number}`;
      const closed = await t.call("PATCH", path, {
        token: reader.token,
        body: { title: "mine, edited", body: "b", state: "closed" },
      });
      expect(closed.status).toBe(201);
      expect(closed.json).toMatchObject({ title: "mine, edited", body: "b", state: "closed" });
      expect(closed.json.closed_at).not.toBeNull();
      const reopened = await t.call("PATCH", path, { token: reader.token, body: { state: "open" } });
      expect(reopened.json).toMatchObject({ state: "open", closed_at: null });
      // Labels, assignees, milestone and due date are a writer's: ignored for the poster.
      const ignored = await t.call("PATCH", path, {
        token: reader.token,
        body: { milestone: milestoneId, assignees: [reader.name], due_date: "2031-01-01T00:00:00Z" },
      });
      expect(ignored.json).toMatchObject({ milestone: null, assignees: null, due_date: null });
      expect((await t.call("PATCH", path, { token: outsider.token, body: { title: "hijack" } })).status).toBe(
        403,
      );
      expect(
        (await t.call("PATCH", `${repo.path}/issues/1`, { token: reader.token, body: { title: "hijack" } }))
          .status,
      ).toBe(403);
    });

    it("lets writers set the due date (end of that day in the offset given), assignees and milestone", async () => {
      const issue = await create(repo.path, reader.token, { title: "to plan" });
      const path = `${repo.path}/issues/${issue.json.number}`;
      const planned = await t.call("PATCH", path, {
        token: writer.token,
        body: {
          due_date: "2031-05-10T08:00:00-03:00",
          assignees: [writer.name, reader.name],
          milestone: milestoneId,
        },
      });
      expect(planned.status).toBe(201);
      expect(planned.json.due_date).toBe("2031-05-11T02:59:59Z");
      expect(planned.json.assignees.map((u: { login: string }) => u.login).sort()).toEqual(
        [reader.name, writer.name].sort(),
      );
      expect(planned.json.milestone.id).toBe(milestoneId);
      const replaced = await t.call("PATCH", path, {
        token: writer.token,
        body: { assignees: [], unset_due_date: true, milestone: 0 },
      });
      expect(replaced.json).toMatchObject({ assignees: null, due_date: null, milestone: null });
      const noDate = await t.call("PATCH", path, { token: writer.token, body: { unset_due_date: false } });
      expect(noDate.status).toBe(400);
      expect(noDate.json.message).toBe("The due_date cannot be empty");
      const badMilestone = await t.call("PATCH", path, { token: writer.token, body: { milestone: 999999 } });
      expect(badMilestone.status).toBe(422);
    });

    it("lets only repository admins set updated_at, between creation and now", async () => {
      const issue = await create(repo.path, owner.token, { title: "dated" });
      const path = `${repo.path}/issues/${issue.json.number}`;
      const denied = await t.call("PATCH", path, {
        token: writer.token,
        body: { title: "x", updated_at: new Date().toISOString() },
      });
      expect(denied.status).toBe(403);
      expect(denied.json.message).toBe("user needs to have admin or owner right");
      const future = await t.call("PATCH", path, {
        token: owner.token,
        body: { title: "x", updated_at: "2099-01-01T00:00:00Z" },
      });
      expect(future.json.message).toBe("unallowed update date");
    });

    it("notifies the issue's participants, never the one who made the change", async () => {
      const issue = await create(repo.path, reader.token, { title: "notify me", assignees: [] });
      await t.call("PATCH", `${repo.path}/issues/${issue.json.number}`, {
        token: owner.token,
        body: { body: `cc @${writer.name}` },
      });
      const rows = await t.services.ctx.db
        .selectFrom("notification")
        .innerJoin("issue", "issue.id", "notification.issueId")
        .select(["notification.userId", "notification.status"])
        .where("issue.id", "=", issue.json.id)
        .execute();
      // The owner watches the repository it created (AUTO_WATCH_NEW_REPOS): told of the new issue.
      expect(rows.map((row) => row.userId).sort()).toEqual([owner.id, reader.id, writer.id].sort());
      expect(rows.every((row) => row.status === 1)).toBe(true);
    });
  });

  describe("delete", () => {
    it("is for repository admins, and recounts the repository", async () => {
      const issue = await create(repo.path, writer.token, { title: "doomed" });
      const path = `${repo.path}/issues/${issue.json.number}`;
      expect((await t.call("DELETE", path, { token: writer.token })).status).toBe(403);
      const before = (await t.call("GET", repo.path, { token: owner.token })).json.open_issues_count;
      expect((await t.call("DELETE", path, { token: owner.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: owner.token })).status).toBe(404);
      expect((await t.call("GET", repo.path, { token: owner.token })).json.open_issues_count).toBe(
        before - 1,
      );
    });
  });

  describe("an archived repository", () => {
    it("refuses new issues, comments, comment edits and dependencies with Forgejo's 423, reads still work", async () => {
      const archived = await createRepo(t, owner, `archived-${dialect}`);
      const issue = await create(archived.path, owner.token, { title: "before archiving" });
      const comment = await t.call("POST", `${archived.path}/issues/1/comments`, {
        token: owner.token,
        body: { body: "said before" },
      });
      await create(archived.path, owner.token, { title: "another" });
      const done = await t.call("PATCH", archived.path, { token: owner.token, body: { archived: true } });
      expect(done.json.archived).toBe(true);
      const message = `<Repository ${archived.id}:${owner.name}/archived-${dialect}> is archived`;
      const refused = [
        ["POST", `${archived.path}/issues`, { title: "after" }],
        ["POST", `${archived.path}/issues/1/comments`, { body: "after" }],
        ["PATCH", `${archived.path}/issues/comments/${comment.json.id}`, { body: "edited" }],
        ["POST", `${archived.path}/issues/1/dependencies`, { index: 2 }],
        ["DELETE", `${archived.path}/issues/1/dependencies`, { index: 2 }],
      ] as const;
      for (const [method, path, body] of refused) {
        const res = await t.call(method, path, { token: owner.token, body });
        expect(res.status, `${method} ${path}`).toBe(423);
        expect(res.json.message).toBe(message);
      }
      // Before the body is even read: an invalid one is still 423.
      const invalid = await t.call("POST", `${archived.path}/issues`, { token: owner.token, body: {} });
      expect(invalid.status).toBe(423);
      // Who may not see it still gets 404, and anonymous callers 401, as before.
      const hidden = await createRepo(t, owner, `archived-secret-${dialect}`, { private: true });
      await t.call("PATCH", hidden.path, { token: owner.token, body: { archived: true } });
      const probe = await create(hidden.path, outsider.token, { title: "x" });
      expect(probe.status).toBe(404);
      expect((await t.call("POST", `${archived.path}/issues`, { body: { title: "x" } })).status).toBe(401);
      // An archived issue blocking one elsewhere is not changed through …/blocks either: Forgejo's 404.
      const blocks = await t.call("POST", `${repo.path}/issues/1/blocks`, {
        token: owner.token,
        body: { owner: owner.name, repo: `archived-${dialect}`, index: 2 },
      });
      expect(blocks.status).toBe(404);
      expect((await t.call("GET", `${archived.path}/issues/1/comments`)).json).toHaveLength(1);
      expect((await t.call("GET", `${archived.path}/issues/${issue.json.number}`)).status).toBe(200);
      // Forgejo guards only those routes (api.go's mustNotBeArchived): an edit still works.
      const edited = await t.call("PATCH", `${archived.path}/issues/1`, {
        token: owner.token,
        body: { state: "closed" },
      });
      expect(edited.status).toBe(201);
    });
  });

  describe("what Go clients send", () => {
    // The Go SDK and tea marshal every option field, unset ones as null (no omitempty); Forgejo's
    // encoding/json reads null as absent.
    it("takes null for every optional field of a new issue, and milestone 0 as none", async () => {
      const res = await create(repo.path, writer.token, {
        title: "from tea",
        body: "",
        ref: "",
        assignee: null,
        assignees: null,
        due_date: null,
        milestone: 0,
        labels: null,
        closed: false,
      });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        title: "from tea",
        milestone: null,
        labels: [],
        assignees: null,
        due_date: null,
        state: "open",
      });
    });

    it("changes nothing for null fields and an empty title of an edit", async () => {
      const issue = await create(repo.path, writer.token, { title: "keep me", body: "text", ref: "main" });
      const path = `${repo.path}/issues/${issue.json.number}`;
      const res = await t.call("PATCH", path, {
        token: writer.token,
        body: {
          title: "",
          body: null,
          ref: null,
          assignee: null,
          assignees: null,
          milestone: null,
          state: "closed",
          due_date: null,
          unset_due_date: null,
          updated_at: null,
        },
      });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ title: "keep me", body: "text", ref: "main", state: "closed" });
      // A due date of null alone is no change (Forgejo answers 201), not "The due_date cannot be empty".
      const onlyNull = await t.call("PATCH", path, { token: writer.token, body: { due_date: null } });
      expect(onlyNull.status).toBe(201);
      expect(onlyNull.json.due_date).toBeNull();
    });

    it("reads Go's zero time as no due date, and removes a due date with it", async () => {
      const zero = "0001-01-01T00:00:00Z";
      const res = await create(repo.path, writer.token, { title: "zero due", due_date: zero });
      expect(res.status).toBe(201);
      expect(res.json.due_date).toBeNull();
      const path = `${repo.path}/issues/${res.json.number}`;
      const set = await t.call("PATCH", path, {
        token: writer.token,
        body: { due_date: "2031-01-01T12:00:00Z" },
      });
      expect(set.json.due_date).toBe("2031-01-01T23:59:59Z");
      const removed = await t.call("PATCH", path, { token: writer.token, body: { due_date: zero } });
      expect(removed.status).toBe(201);
      expect(removed.json.due_date).toBeNull();
    });

    it("refuses times before 1970, after 9999 and of impossible dates with 422, and keeps the extremes", async () => {
      for (const due_date of [
        "0050-06-01T00:00:00Z",
        "0099-12-31T00:00:00Z",
        "1969-12-31T23:59:59Z",
        // 10000-01-01T04:00:00Z: no RFC 3339 form.
        "9999-12-31T23:00:00-05:00",
        "2027-02-30T00:00:00Z",
        "2027-13-01T00:00:00Z",
        "2027-01-01T24:00:00Z",
        "2027-01-01T00:00:60Z",
        "2027-01-01 00:00:00Z",
        "2027-01-01T00:00:00",
      ]) {
        const res = await create(repo.path, writer.token, { title: "dated", due_date });
        expect(res.status, due_date).toBe(422);
        expect(res.json.message, due_date).toMatch(/^\[DueDate\]: must be/);
      }
      const earliest = await create(repo.path, writer.token, {
        title: "dated",
        due_date: "1970-01-01T00:00:00Z",
      });
      expect(earliest.json.due_date).toBe("1970-01-01T00:00:00Z");
      const latest = await create(repo.path, writer.token, {
        title: "dated",
        due_date: "9999-12-31T23:59:59.999999999Z",
      });
      expect(latest.status).toBe(201);
      expect(latest.json.due_date).toBe("9999-12-31T23:59:59Z");
      // The end of a day that ends after 9999 cannot be stored either.
      const path = `${repo.path}/issues/${latest.json.number}`;
      const late = await t.call("PATCH", path, {
        token: writer.token,
        body: { due_date: "9999-12-31T10:00:00-05:00" },
      });
      expect(late.status).toBe(422);
      expect(late.json.message).toContain("9999-12-31T23:59:59Z");
      const since = await t.call("GET", `${repo.path}/issues?since=2027-02-30T00:00:00Z`);
      expect(since.status).toBe(422);
      // Filters outside the stored range are answered, not refused or failed.
      for (const window of ["since=0001-01-01T00:00:00Z", "before=9999-12-31T23:59:59-05:00"]) {
        const res = await t.call("GET", `${repo.path}/issues?state=all&${window}`);
        expect(res.status, window).toBe(200);
      }
    });
  });

  describe("search across repositories", () => {
    it("finds issues of every repository the caller may see, and nothing of the others", async () => {
      const mine = await t.call("GET", "/repos/issues/search?q=secret&state=all", { token: reader.token });
      expect(titles(mine.json)).toEqual(["secret plans"]);
      expect(
        (await t.call("GET", "/repos/issues/search?q=secret&state=all", { token: outsider.token })).json,
      ).toEqual([]);
      expect((await t.call("GET", "/repos/issues/search?q=secret&state=all")).json).toEqual([]);
      const byLabel = await t.call("GET", "/repos/issues/search?labels=triage,ui");
      expect(titles(byLabel.json).sort()).toEqual(["First issue", "org issue"]);
      expect(byLabel.headers.get("X-Total-Count")).toBe("2");
      const byOwner = await t.call("GET", `/repos/issues/search?owner=${org}`);
      expect(titles(byOwner.json)).toEqual(["org issue"]);
      const unknown = await t.call("GET", "/repos/issues/search?owner=nobody-at-all");
      expect(unknown.status).toBe(400);
      expect((await t.call("GET", "/repos/issues/search?team=x")).status).toBe(400);
      const created = await t.call("GET", "/repos/issues/search?created=true&state=all", {
        token: reader.token,
      });
      expect(created.json.every((i: { user: { login: string } }) => i.user.login === reader.name)).toBe(true);
    });

    it("looks a keyword up only where the caller may look, and at the newest 10,000 matches at most", async () => {
      const crowded = await createRepo(t, owner, `crowded-${dialect}`, { private: true });
      const open = await createRepo(t, owner, `quiet-${dialect}`);
      const older = await create(open.path, owner.token, { title: "an older issue" });
      await t.call("POST", `${open.path}/issues/${older.json.number}/comments`, {
        token: owner.token,
        body: { body: "plentiful words" },
      });
      // 10,050 newer private issues with the word, straight into the table.
      const db = t.services.ctx.db;
      const now = new Date();
      for (let from = 1; from <= 10_050; from += 2_000) {
        const rows = Array.from({ length: Math.min(2_000, 10_051 - from) }, (_, i) => ({
          repoId: crowded.id,
          index: from + i,
          posterId: owner.id,
          title: `plentiful ${from + i}`,
          content: "",
          createdAt: now,
          updatedAt: now,
        }));
        await db.insertInto("issue").values(rows).execute();
      }
      const asOutsider = await t.call("GET", "/repos/issues/search?q=plentiful", { token: outsider.token });
      expect(titles(asOutsider.json)).toEqual(["an older issue"]);
      expect(asOutsider.headers.get("X-Total-Count")).toBe("1");
      const asOwner = await t.call("GET", "/repos/issues/search?q=plentiful&limit=5", { token: owner.token });
      expect(asOwner.headers.get("X-Total-Count")).toBe("10000");
      expect(titles(asOwner.json)).toEqual([
        "plentiful 10050",
        "plentiful 10049",
        "plentiful 10048",
        "plentiful 10047",
        "plentiful 10046",
      ]);
      const inRepo = await t.call("GET", `${crowded.path}/issues?q=plentiful&limit=1`, {
        token: owner.token,
      });
      expect(inRepo.headers.get("X-Total-Count")).toBe("10000");
      await db.deleteFrom("issue").where("repoId", "=", crowded.id).execute();
    });

    it("shows a team member only the kinds its team's units read, as each repository's own list does", async () => {
      const unitRepo = `/repos/${org}/unitrepo`;
      expect(
        (
          await t.call("POST", `/orgs/${org}/repos`, {
            token: owner.token,
            body: { name: "unitrepo", private: true },
          })
        ).status,
      ).toBe(201);
      expect((await create(unitRepo, owner.token, { title: "zebracorn sighting" })).status).toBe(201);
      const members: Record<string, TestUser> = {};
      for (const [name, units] of [
        ["coders", { "repo.code": "write" }],
        ["pullers", { "repo.code": "read", "repo.pulls": "write" }],
        ["triagers", { "repo.issues": "read" }],
      ] as const) {
        const team = await t.call("POST", `/orgs/${org}/teams`, {
          token: owner.token,
          body: { name, units_map: units },
        });
        expect(team.status).toBe(201);
        const member = await t.user();
        await t.call("PUT", `/teams/${team.json.id}/members/${member.name}`, { token: owner.token });
        await t.call("PUT", `/teams/${team.json.id}/repos/${org}/unitrepo`, { token: owner.token });
        members[name] = member;
      }
      const search = async (user: TestUser | undefined, query = "q=zebracorn") => {
        const res = await t.call("GET", `/repos/issues/search?${query}`, user ? { token: user.token } : {});
        expect(res.status).toBe(200);
        return { titles: titles(res.json), total: res.headers.get("X-Total-Count") };
      };
      expect(await search(members.triagers)).toEqual({ titles: ["zebracorn sighting"], total: "1" });
      for (const name of ["coders", "pullers"]) {
        expect(await search(members[name]), name).toEqual({ titles: [], total: "0" });
        expect(await search(members[name], "q=zebracorn&type=issues"), name).toEqual({
          titles: [],
          total: "0",
        });
        // The same answer as the repository's own list, which is 404 for them.
        const own = await t.call("GET", `${unitRepo}/issues?type=issues`, { token: members[name]?.token });
        expect(own.status, name).toBe(404);
      }
      // By label and by owner too (no keyword).
      expect((await search(members.coders, `owner=${org}&state=all`)).titles).not.toContain(
        "zebracorn sighting",
      );
      expect((await search(members.triagers, `owner=${org}&state=all`)).titles).toContain(
        "zebracorn sighting",
      );
    });

    it("shows public-only tokens and restricted users only what they may read", async () => {
      const ownerUser = await t.services.users.getByName(owner.name);
      const { secret } = await t.services.tokens.create(ownerUser, "public-only", ["public-only", "all"]);
      const full = await t.call("GET", "/repos/issues/search?q=secret&state=all", { token: owner.token });
      expect(titles(full.json)).toEqual(["secret plans"]);
      const limited = await t.call("GET", "/repos/issues/search?q=secret&state=all", { token: secret });
      expect(limited.json).toEqual([]);
      expect(limited.headers.get("X-Total-Count")).toBe("0");
      const admin = await t.user({ admin: true });
      const restricted = await t.user();
      const patched = await t.call("PATCH", `/admin/users/${restricted.name}`, {
        token: admin.token,
        body: { restricted: true, login_name: restricted.name, source_id: 0 },
      });
      expect(patched.status).toBe(200);
      // A restricted user reads no public repository it was not given, not even its issues.
      const open = await t.call("GET", "/repos/issues/search?q=First&state=all", { token: restricted.token });
      expect(open.json).toEqual([]);
      const anonymous = await t.call("GET", "/repos/issues/search?q=First&state=all");
      expect(titles(anonymous.json)).toContain("First issue");
    });
  });
});
