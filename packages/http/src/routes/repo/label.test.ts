import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("labels and milestones on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "tracker");
    secret = await createRepo(t, owner, "secret", { private: true });
    for (const r of [repo, secret]) {
      const added = await t.call("PUT", `${r.path}/collaborators/${reader.name}`, {
        token: owner.token,
        body: { permission: "read" },
      });
      expect(added.status).toBe(204);
    }
  });
  afterAll(() => t?.close());

  describe("repository labels", () => {
    it("creates labels with a normalized color and lists them by name with X-Total-Count", async () => {
      for (const [name, color] of [
        ["bug", "#EE0701"],
        ["enhancement", "84b6eb"],
        ["a-first", " #00AAbb "],
      ]) {
        const res = await t.call("POST", `${repo.path}/labels`, {
          token: owner.token,
          body: { name, color, description: `${name}!` },
        });
        expect(res.status).toBe(201);
        expect(res.json).toMatchObject({
          name,
          exclusive: false,
          is_archived: false,
          description: `${name}!`,
        });
        expect(res.json.color).toMatch(/^[0-9a-f]{6}$/);
        expect(res.json.url).toBe(
          `http://kiln.test/api/v1/repos/${owner.name}/tracker/labels/${res.json.id}`,
        );
      }
      const list = await t.call("GET", `${repo.path}/labels`, { token: reader.token });
      expect(list.status).toBe(200);
      expect(list.json.map((l: { name: string }) => l.name)).toEqual(["a-first", "bug", "enhancement"]);
      expect(list.json.map((l: { color: string }) => l.color)).toEqual(["00aabb", "ee0701", "84b6eb"]);
      expect(list.headers.get("X-Total-Count")).toBe("3");
      expect(list.headers.get("Link")).toBeNull();
      const paged = await t.call("GET", `${repo.path}/labels?page=2&limit=2&sort=reversealphabetically`, {
        token: reader.token,
      });
      expect(paged.json.map((l: { name: string }) => l.name)).toEqual(["a-first"]);
      expect(paged.headers.get("Link")).toContain('rel="first"');
    });

    it("refuses colors that are not six hex digits, and missing names and colors, with 422", async () => {
      for (const color of ["#12345g", "abc", "#1234567", "red", ""]) {
        const res = await t.call("POST", `${repo.path}/labels`, {
          token: owner.token,
          body: { name: "x", color },
        });
        expect(res.status, color).toBe(422);
      }
      const bad = await t.call("POST", `${repo.path}/labels`, {
        token: owner.token,
        body: { name: "x", color: "12345g" },
      });
      expect(bad.json.message).toBe("bad color code: #12345g");
      const noName = await t.call("POST", `${repo.path}/labels`, {
        token: owner.token,
        body: { color: "ffffff" },
      });
      expect(noName.json.message).toBe("[Name]: Required");
      const noColor = await t.call("POST", `${repo.path}/labels`, {
        token: owner.token,
        body: { name: "y" },
      });
      expect(noColor.json.message).toBe("[Color]: Required");
    });

    it("gets a label by id or name, edits it (is_archived absent un-archives) and deletes it", async () => {
      const created = await t.call("POST", `${repo.path}/labels`, {
        token: owner.token,
        body: { name: "scope/x", color: "ffffff", exclusive: true, is_archived: true },
      });
      const id = created.json.id;
      expect(created.json).toMatchObject({ exclusive: true, is_archived: true });
      expect((await t.call("GET", `${repo.path}/labels/${id}`, { token: reader.token })).json.name).toBe(
        "scope/x",
      );
      expect((await t.call("GET", `${repo.path}/labels/scope%2Fx`, { token: reader.token })).json.id).toBe(
        id,
      );
      const edited = await t.call("PATCH", `${repo.path}/labels/${id}`, {
        token: owner.token,
        body: { color: "#000000" },
      });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({
        color: "000000",
        is_archived: false,
        name: "scope/x",
        exclusive: true,
      });
      expect(
        (await t.call("PATCH", `${repo.path}/labels/${id}`, { token: owner.token, body: { color: "nope" } }))
          .status,
      ).toBe(422);
      expect(
        (await t.call("PATCH", `${repo.path}/labels/999999`, { token: owner.token, body: {} })).status,
      ).toBe(404);
      expect((await t.call("DELETE", `${repo.path}/labels/${id}`, { token: owner.token })).status).toBe(204);
      expect((await t.call("GET", `${repo.path}/labels/${id}`, { token: owner.token })).status).toBe(404);
      // As in Forgejo, deleting a label that is not there succeeds.
      expect((await t.call("DELETE", `${repo.path}/labels/${id}`, { token: owner.token })).status).toBe(204);
    });

    it("takes null as absent in every field of an edit, as Go clients send unset fields", async () => {
      const created = await t.call("POST", `${repo.path}/labels`, {
        token: owner.token,
        body: { name: "from-tea", color: "123456", description: null, exclusive: null, is_archived: null },
      });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ description: "", exclusive: false, is_archived: false });
      const edited = await t.call("PATCH", `${repo.path}/labels/${created.json.id}`, {
        token: owner.token,
        body: { name: null, color: null, description: "described", exclusive: null, is_archived: null },
      });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({ name: "from-tea", color: "123456", description: "described" });
    });

    it("lets readers read but not write (403), and hides a private repository's labels (404)", async () => {
      expect(
        (
          await t.call("POST", `${repo.path}/labels`, {
            token: reader.token,
            body: { name: "r", color: "ffffff" },
          })
        ).status,
      ).toBe(403);
      expect(
        (await t.call("POST", `${repo.path}/labels`, { body: { name: "r", color: "ffffff" } })).status,
      ).toBe(401);
      const onSecret = await t.call("POST", `${secret.path}/labels`, {
        token: owner.token,
        body: { name: "hidden", color: "ffffff" },
      });
      expect(onSecret.status).toBe(201);
      for (const token of [outsider.token, undefined]) {
        expect((await t.call("GET", `${secret.path}/labels`, { token })).status).toBe(404);
        expect((await t.call("GET", `${secret.path}/labels/${onSecret.json.id}`, { token })).status).toBe(
          404,
        );
      }
      expect(
        (await t.call("DELETE", `${secret.path}/labels/${onSecret.json.id}`, { token: outsider.token }))
          .status,
      ).toBe(404);
      expect((await t.call("GET", `${secret.path}/labels`, { token: reader.token })).json).toHaveLength(1);
      // A label of another repository is not this one's.
      expect(
        (await t.call("GET", `${repo.path}/labels/${onSecret.json.id}`, { token: owner.token })).status,
      ).toBe(404);
    });
  });

  describe("organization labels", () => {
    it("are listed for anyone who sees the organization, read with a token, written by owners only", async () => {
      const org = `org-${dialect}`;
      expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(
        201,
      );
      const created = await t.call("POST", `/orgs/${org}/labels`, {
        token: owner.token,
        body: { name: "triage", color: "#123ABC", is_archived: true },
      });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ name: "triage", color: "123abc", is_archived: false });
      expect(created.json.url).toBe(`http://kiln.test/api/v1/orgs/${org}/labels/${created.json.id}`);
      const listed = await t.call("GET", `/orgs/${org}/labels`);
      expect(listed.status).toBe(200);
      expect(listed.json.map((l: { name: string }) => l.name)).toEqual(["triage"]);
      expect((await t.call("GET", `/orgs/${org}/labels/${created.json.id}`)).status).toBe(401);
      expect(
        (await t.call("GET", `/orgs/${org}/labels/${created.json.id}`, { token: outsider.token })).status,
      ).toBe(200);
      const denied = await t.call("POST", `/orgs/${org}/labels`, {
        token: outsider.token,
        body: { name: "x", color: "ffffff" },
      });
      expect(denied.status).toBe(403);
      expect(
        (
          await t.call("PATCH", `/orgs/${org}/labels/${created.json.id}`, {
            token: owner.token,
            body: { name: "triaged" },
          })
        ).json.name,
      ).toBe("triaged");
      expect(
        (await t.call("DELETE", `/orgs/${org}/labels/${created.json.id}`, { token: owner.token })).status,
      ).toBe(204);
    });
  });

  describe("milestones", () => {
    it("creates open and closed milestones (closed_at set), finds them by id or name, lists by due date", async () => {
      const later = await t.call("POST", `${repo.path}/milestones`, {
        token: owner.token,
        body: { title: " v2 ", description: "second", due_on: "2031-06-01T00:00:00Z" },
      });
      expect(later.status).toBe(201);
      expect(later.json).toMatchObject({
        title: "v2",
        description: "second",
        state: "open",
        open_issues: 0,
        closed_issues: 0,
        closed_at: null,
        due_on: "2031-06-01T00:00:00Z",
      });
      const closed = await t.call("POST", `${repo.path}/milestones`, {
        token: owner.token,
        body: { title: "v0", state: "closed" },
      });
      expect(closed.json.state).toBe("closed");
      expect(closed.json.closed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(closed.json.due_on).toBeNull();
      await t.call("POST", `${repo.path}/milestones`, {
        token: owner.token,
        body: { title: "v1", due_on: "2030-01-01T00:00:00+02:00" },
      });

      const all = await t.call("GET", `${repo.path}/milestones`, { token: reader.token });
      expect(all.json.map((m: { title: string }) => m.title)).toEqual(["v1", "v2", "v0"]);
      expect(all.headers.get("X-Total-Count")).toBe("3");
      const open = await t.call("GET", `${repo.path}/milestones?state=open`, { token: reader.token });
      expect(open.json.map((m: { title: string }) => m.title)).toEqual(["v1", "v2"]);
      const byName = await t.call("GET", `${repo.path}/milestones?name=V`, { token: reader.token });
      expect(byName.json).toHaveLength(3);
      expect(
        (await t.call("GET", `${repo.path}/milestones?name=2`, { token: reader.token })).json.map(
          (m: { title: string }) => m.title,
        ),
      ).toEqual(["v2"]);
      expect(
        (await t.call("GET", `${repo.path}/milestones/${later.json.id}`, { token: reader.token })).json.title,
      ).toBe("v2");
      expect((await t.call("GET", `${repo.path}/milestones/v0`, { token: reader.token })).json.id).toBe(
        closed.json.id,
      );
      expect(
        (
          await t.call("GET", `${repo.path}/milestones/0x${later.json.id.toString(16)}`, {
            token: reader.token,
          })
        ).json.id,
      ).toBe(later.json.id);
      expect((await t.call("GET", `${repo.path}/milestones/nope`, { token: reader.token })).status).toBe(404);
    });

    it("edits: closing sets closed_at, reopening clears it; empty titles and null due dates change nothing", async () => {
      const created = await t.call("POST", `${repo.path}/milestones`, {
        token: owner.token,
        body: { title: "edit-me", due_on: "2032-01-01T00:00:00Z" },
      });
      const path = `${repo.path}/milestones/${created.json.id}`;
      const closed = await t.call("PATCH", path, {
        token: owner.token,
        body: { state: "closed", title: "" },
      });
      expect(closed.status).toBe(200);
      expect(closed.json).toMatchObject({ state: "closed", title: "edit-me" });
      expect(closed.json.closed_at).not.toBeNull();
      const reopened = await t.call("PATCH", path, {
        token: owner.token,
        body: { state: "open", due_on: null, description: "d" },
      });
      expect(reopened.json).toMatchObject({
        state: "open",
        closed_at: null,
        due_on: "2032-01-01T00:00:00Z",
        description: "d",
      });
      expect((await t.call("PATCH", path, { token: reader.token, body: { title: "x" } })).status).toBe(403);
      expect((await t.call("DELETE", path, { token: owner.token })).status).toBe(204);
      expect((await t.call("GET", path, { token: owner.token })).status).toBe(404);
      expect((await t.call("DELETE", path, { token: owner.token })).status).toBe(404);
    });

    it("takes null as absent, Go's zero time as no due date, and refuses times outside 1970-9999 (422)", async () => {
      const created = await t.call("POST", `${repo.path}/milestones`, {
        token: owner.token,
        body: { title: "from-tea", description: null, due_on: "0001-01-01T00:00:00Z", state: null },
      });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ title: "from-tea", description: "", due_on: null, state: "open" });
      const path = `${repo.path}/milestones/${created.json.id}`;
      const edited = await t.call("PATCH", path, {
        token: owner.token,
        body: { title: null, description: null, due_on: null, state: null },
      });
      expect(edited.status).toBe(200);
      expect(edited.json).toMatchObject({ title: "from-tea", description: "", due_on: null, state: "open" });
      for (const due_on of ["0099-01-01T00:00:00Z", "2031-04-31T00:00:00Z", "9999-12-31T22:00:00-03:00"]) {
        const res = await t.call("PATCH", path, { token: owner.token, body: { due_on } });
        expect(res.status, due_on).toBe(422);
        expect(res.json.message, due_on).toMatch(/^\[DueOn\]: must be/);
      }
    });

    it("hides a private repository's milestones from outsiders and anonymous callers", async () => {
      const m = await t.call("POST", `${secret.path}/milestones`, {
        token: owner.token,
        body: { title: "hidden" },
      });
      expect(m.status).toBe(201);
      for (const token of [outsider.token, undefined]) {
        expect((await t.call("GET", `${secret.path}/milestones`, { token })).status).toBe(404);
        expect((await t.call("GET", `${secret.path}/milestones/${m.json.id}`, { token })).status).toBe(404);
      }
    });
  });
});
