import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { bulkUsers, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("issue comments, labels and deadlines on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let issuePath = "";
  const labelIds: Record<string, number> = {};

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "talk");
    secret = await createRepo(t, owner, "secret", { private: true });
    for (const [user, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
    }
    const issue = await t.call("POST", `${repo.path}/issues`, {
      token: reader.token,
      body: { title: "discuss" },
    });
    issuePath = `${repo.path}/issues/${issue.json.number}`;
    for (const [name, exclusive] of [
      ["bug", false],
      ["kind/a", true],
      ["kind/b", true],
    ] as const) {
      labelIds[name] = (
        await t.call("POST", `${repo.path}/labels`, {
          token: owner.token,
          body: { name, color: "ffffff", exclusive },
        })
      ).json.id;
    }
  });
  afterAll(() => t?.close());

  describe("comments", () => {
    it("creates comments (201), counts them on the issue and lists them oldest first", async () => {
      const first = await t.call("POST", `${issuePath}/comments`, {
        token: outsider.token,
        body: { body: "first!" },
      });
      expect(first.status).toBe(201);
      expect(first.json).toMatchObject({
        body: "first!",
        issue_url: `http://kiln.test/${owner.name}/talk/issues/1`,
        pull_request_url: "",
        html_url: `http://kiln.test/${owner.name}/talk/issues/1#issuecomment-${first.json.id}`,
        original_author: "",
        assets: [],
      });
      expect(first.json.user.login).toBe(outsider.name);
      expect(first.json.user.email).toMatch(/@noreply\.kiln\.test$/);
      await t.call("POST", `${issuePath}/comments`, { token: writer.token, body: { body: "second" } });
      const list = await t.call("GET", `${issuePath}/comments`);
      expect(list.json.map((c: { body: string }) => c.body)).toEqual(["first!", "second"]);
      expect(list.headers.get("X-Total-Count")).toBe("2");
      expect((await t.call("GET", issuePath)).json.comments).toBe(2);
      const repoList = await t.call("GET", `${repo.path}/issues/comments`);
      expect(repoList.json.map((c: { body: string }) => c.body)).toEqual(["first!", "second"]);
      const paged = await t.call("GET", `${repo.path}/issues/comments?page=2&limit=1`);
      expect(paged.json.map((c: { body: string }) => c.body)).toEqual(["second"]);
      expect(paged.headers.get("X-Total-Count")).toBe("2");
      expect((await t.call("GET", `${issuePath}/comments?since=2099-01-01T00:00:00Z`)).json).toEqual([]);
    });

    it("refuses an empty body (422), anonymous callers (401) and unknown issues (404)", async () => {
      expect(
        (await t.call("POST", `${issuePath}/comments`, { token: reader.token, body: { body: "" } })).json
          .message,
      ).toBe("[Body]: Required");
      expect((await t.call("POST", `${issuePath}/comments`, { body: { body: "x" } })).status).toBe(401);
      expect(
        (
          await t.call("POST", `${repo.path}/issues/999/comments`, {
            token: reader.token,
            body: { body: "x" },
          })
        ).status,
      ).toBe(404);
    });

    it("lets the poster or a writer edit and delete a comment, nobody else", async () => {
      const created = await t.call("POST", `${issuePath}/comments`, {
        token: reader.token,
        body: { body: "typo" },
      });
      const path = `${repo.path}/issues/comments/${created.json.id}`;
      expect((await t.call("GET", path)).json.body).toBe("typo");
      expect((await t.call("PATCH", path, { token: outsider.token, body: { body: "hijack" } })).status).toBe(
        403,
      );
      const edited = await t.call("PATCH", path, { token: reader.token, body: { body: "fixed" } });
      expect(edited.status).toBe(200);
      expect(edited.json.body).toBe("fixed");
      const viaDeprecated = await t.call("PATCH", `${issuePath}/comments/${created.json.id}`, {
        token: writer.token,
        body: { body: "by writer" },
      });
      expect(viaDeprecated.json.body).toBe("by writer");
      expect((await t.call("DELETE", path, { token: outsider.token })).status).toBe(403);
      expect((await t.call("DELETE", path, { token: writer.token })).status).toBe(204);
      expect((await t.call("GET", path)).status).toBe(404);
    });

    it("answers a timeline event addressed as a comment with 204 and leaves it", async () => {
      const closed = await t.call("POST", `${repo.path}/issues`, {
        token: owner.token,
        body: { title: "events", closed: true },
      });
      const eventId = await t.services.ctx.db
        .selectFrom("comment")
        .select("id")
        .where("issueId", "=", closed.json.id)
        .executeTakeFirstOrThrow();
      const path = `${repo.path}/issues/comments/${eventId.id}`;
      expect((await t.call("GET", path)).status).toBe(204);
      expect((await t.call("DELETE", path, { token: owner.token })).status).toBe(204);
      expect((await t.call("GET", path)).status).toBe(204);
    });

    it("takes comments on a locked issue from writers only", async () => {
      const issue = await t.call("POST", `${repo.path}/issues`, {
        token: owner.token,
        body: { title: "locked" },
      });
      await t.services.ctx.db
        .updateTable("issue")
        .set({ isLocked: true })
        .where("id", "=", issue.json.id)
        .execute();
      const path = `${repo.path}/issues/${issue.json.number}/comments`;
      const denied = await t.call("POST", path, { token: reader.token, body: { body: "x" } });
      expect(denied.status).toBe(403);
      expect(denied.json.message).toBe("You cannot comment on a locked issue.");
      expect((await t.call("POST", path, { token: writer.token, body: { body: "x" } })).status).toBe(201);
    });

    it("hides a private repository's comments from outsiders", async () => {
      const issue = await t.call("POST", `${secret.path}/issues`, {
        token: owner.token,
        body: { title: "s" },
      });
      const comment = await t.call("POST", `${secret.path}/issues/${issue.json.number}/comments`, {
        token: owner.token,
        body: { body: "hush" },
      });
      for (const token of [outsider.token, undefined]) {
        expect(
          (await t.call("GET", `${secret.path}/issues/comments/${comment.json.id}`, { token })).status,
        ).toBe(404);
        expect(
          (await t.call("GET", `${secret.path}/issues/${issue.json.number}/comments`, { token })).status,
        ).toBe(404);
      }
      // A comment of another repository is not found through this one.
      expect(
        (await t.call("GET", `${repo.path}/issues/comments/${comment.json.id}`, { token: owner.token }))
          .status,
      ).toBe(404);
    });
  });

  describe("issue labels", () => {
    it("takes labels: null as no labels to add (Go clients send it)", async () => {
      const before = await t.call("GET", `${issuePath}/labels`);
      const res = await t.call("POST", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: null, updated_at: null },
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(before.json);
    });

    it("adds by id or name, replaces, removes and clears, for writers only", async () => {
      const added = await t.call("POST", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: [labelIds.bug] },
      });
      expect(added.status).toBe(200);
      expect(added.json.map((l: { name: string }) => l.name)).toEqual(["bug"]);
      const byName = await t.call("POST", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: ["kind/a", "unknown"] },
      });
      expect(byName.json.map((l: { name: string }) => l.name)).toEqual(["bug", "kind/a"]);
      // An exclusive label replaces the other label of its scope.
      const exclusive = await t.call("POST", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: ["kind/b"] },
      });
      expect(exclusive.json.map((l: { name: string }) => l.name)).toEqual(["bug", "kind/b"]);
      const replaced = await t.call("PUT", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: [labelIds["kind/a"], labelIds["kind/b"]] },
      });
      expect(replaced.json.map((l: { name: string }) => l.name)).toEqual(["kind/b"]);
      expect((await t.call("GET", `${issuePath}/labels`)).json.map((l: { name: string }) => l.name)).toEqual([
        "kind/b",
      ]);
      expect(
        (await t.call("DELETE", `${issuePath}/labels/${labelIds["kind/b"]}`, { token: writer.token })).status,
      ).toBe(204);
      expect(
        (await t.call("DELETE", `${issuePath}/labels/${labelIds.bug}`, { token: writer.token })).status,
      ).toBe(204);
      const unknown = await t.call("DELETE", `${issuePath}/labels/999999`, { token: writer.token });
      expect(unknown.status).toBe(422);
      expect(unknown.json.message).toBe("label does not exist [label_id: 999999]");
      await t.call("POST", `${issuePath}/labels`, { token: writer.token, body: { labels: [labelIds.bug] } });
      expect((await t.call("DELETE", `${issuePath}/labels`, { token: writer.token })).status).toBe(204);
      expect((await t.call("GET", `${issuePath}/labels`)).json).toEqual([]);
      expect(
        (
          await t.call("POST", `${issuePath}/labels`, {
            token: reader.token,
            body: { labels: [labelIds.bug] },
          })
        ).status,
      ).toBe(403);
    });

    it("refuses mixed or odd label lists with Forgejo's 400s", async () => {
      const mixed = await t.call("POST", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: [labelIds.bug, "bug"] },
      });
      expect(mixed.status).toBe(400);
      expect(mixed.json.message).toBe("labels should be an array of strings or integers");
      const odd = await t.call("POST", `${issuePath}/labels`, {
        token: writer.token,
        body: { labels: [{ id: 1 }] },
      });
      expect(odd.status).toBe(400);
      expect(odd.json.message).toBe("a label must be an integer or a string");
    });

    it("records each change on the timeline and in the labels' counts", async () => {
      await t.call("PUT", `${issuePath}/labels`, { token: writer.token, body: { labels: ["bug"] } });
      const label = await t.call("GET", `${repo.path}/labels/${labelIds.bug}`);
      expect(label.status).toBe(200);
      const events = await t.services.ctx.db
        .selectFrom("comment")
        .innerJoin("issue", "issue.id", "comment.issueId")
        .select(["comment.type", "comment.content"])
        .where("issue.index", "=", 1)
        .where("issue.repoId", "=", repo.id)
        .where("comment.type", "=", 7)
        .execute();
      expect(events.length).toBeGreaterThan(4);
      const counted = await t.services.ctx.db
        .selectFrom("label")
        .select("numIssues")
        .where("id", "=", labelIds.bug as number)
        .executeTakeFirstOrThrow();
      expect(counted.numIssues).toBe(1);
    });
  });

  describe("long lists", () => {
    /** `count` users straight into the table (no password hashing), their ids. */
    const manyUsers = async (prefix: string, count: number): Promise<number[]> => {
      await bulkUsers(t.services, prefix, count);
      const rows = await t.services.ctx.db
        .selectFrom("users")
        .select("id")
        .where("name", "like", `${prefix}-%`)
        .orderBy("id")
        .execute();
      return rows.map((row) => row.id);
    };

    it("answers an issue's comments unpaged up to 1000 with the total, and pages them on request", async () => {
      const issue = await t.call("POST", `${repo.path}/issues`, {
        token: owner.token,
        body: { title: "busy" },
      });
      const busy = `${repo.path}/issues/${issue.json.number}`;
      const at = new Date();
      const rows = Array.from({ length: 1_001 }, (_, i) => ({
        issueId: issue.json.id,
        type: 0,
        posterId: owner.id,
        content: `say ${i + 1}`,
        createdAt: new Date(at.getTime() + i),
        updatedAt: new Date(at.getTime() + i),
      }));
      await t.services.ctx.db.insertInto("comment").values(rows).execute();
      const all = await t.call("GET", `${busy}/comments`);
      expect(all.status).toBe(200);
      expect(all.json).toHaveLength(1_000);
      expect(all.headers.get("X-Total-Count")).toBe("1001");
      expect(all.json[999].body).toBe("say 1000");
      const page = await t.call("GET", `${busy}/comments?page=21&limit=50`);
      expect(page.json.map((c: { body: string }) => c.body)).toEqual(["say 1001"]);
      expect(page.headers.get("X-Total-Count")).toBe("1001");
      expect(page.headers.get("Link")).toContain('rel="prev"');
    });

    it("answers reactions of issues and comments unpaged (all, with the total) or a page on request", async () => {
      const ids = await manyUsers(`react-${dialect}`, 35);
      const comment = await t.call("POST", `${issuePath}/comments`, {
        token: owner.token,
        body: { body: "+1?" },
      });
      const issue = (await t.call("GET", issuePath)).json;
      const rows = ids.flatMap((userId) => [
        { type: "+1", issueId: issue.id, commentId: 0, userId },
        { type: "+1", issueId: issue.id, commentId: comment.json.id, userId },
      ]);
      await t.services.ctx.db.insertInto("reaction").values(rows).execute();
      for (const path of [
        `${issuePath}/reactions`,
        `${repo.path}/issues/comments/${comment.json.id}/reactions`,
      ]) {
        const all = await t.call("GET", path);
        expect(all.status, path).toBe(200);
        expect(all.json, path).toHaveLength(35);
        expect(all.headers.get("X-Total-Count"), path).toBe("35");
        const page = await t.call("GET", `${path}?page=2&limit=30`);
        expect(page.json, path).toHaveLength(5);
        expect(page.headers.get("X-Total-Count"), path).toBe("35");
        expect(page.headers.get("Link"), path).toContain('rel="first"');
      }
    });

    it("answers an issue's labels with X-Total-Count, and a page on request", async () => {
      await t.call("PUT", `${issuePath}/labels`, {
        token: owner.token,
        body: { labels: [labelIds.bug, labelIds["kind/a"]] },
      });
      const all = await t.call("GET", `${issuePath}/labels`);
      expect(all.json.map((l: { name: string }) => l.name)).toEqual(["bug", "kind/a"]);
      expect(all.headers.get("X-Total-Count")).toBe("2");
      const page = await t.call("GET", `${issuePath}/labels?page=2&limit=1`);
      expect(page.json.map((l: { name: string }) => l.name)).toEqual(["kind/a"]);
      expect(page.headers.get("Link")).toContain('rel="prev"');
    });
  });

  describe("deadlines", () => {
    it("sets the end of the given day in the given offset (201), and removes it with null", async () => {
      const set = await t.call("POST", `${issuePath}/deadline`, {
        token: writer.token,
        body: { due_date: "2031-07-04T01:00:00+09:00" },
      });
      expect(set.status).toBe(201);
      expect(set.json.due_date).toBe("2031-07-04T14:59:59Z");
      expect((await t.call("GET", issuePath)).json.due_date).toBe("2031-07-04T14:59:59Z");
      const removed = await t.call("POST", `${issuePath}/deadline`, {
        token: writer.token,
        body: { due_date: null },
      });
      // Forgejo answers a removed deadline with Go's zero time.
      expect(removed.status).toBe(201);
      expect(removed.json.due_date).toBe("0001-01-01T00:00:00Z");
      expect((await t.call("GET", issuePath)).json.due_date).toBeNull();
      for (const body of [{ due_date: "2031-07-04T01:00:00+09:00" }, {}]) {
        expect((await t.call("POST", `${issuePath}/deadline`, { token: writer.token, body })).status).toBe(
          201,
        );
      }
      expect((await t.call("GET", issuePath)).json.due_date).toBeNull();
      const impossible = await t.call("POST", `${issuePath}/deadline`, {
        token: writer.token,
        body: { due_date: "2031-02-29T01:00:00Z" },
      });
      expect(impossible.status).toBe(422);
      const denied = await t.call("POST", `${issuePath}/deadline`, {
        token: reader.token,
        body: { due_date: "2031-07-04T01:00:00Z" },
      });
      expect(denied.status).toBe(403);
      expect(denied.json.message).toBe("Not repo writer");
    });
  });
});
