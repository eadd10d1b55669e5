import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

interface Event {
  id: number;
  type: string;
  body: string;
  user: { login: string };
  label: { name: string } | null;
  milestone: { title: string } | null;
  old_milestone: { title: string } | null;
  assignee: { login: string } | null;
  removed_assignee: boolean;
  old_title: string;
  new_title: string;
  tracked_time: { time: number; user_name: string } | null;
  dependent_issue: { number: number; title: string } | null;
  html_url: string;
  ref_action: string;
}

describe.each(DIALECTS)("an issue's timeline on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let path = "";
  let events: Event[] = [];

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "story");
    secret = await createRepo(t, owner, "hidden-story", { private: true });
    const call = (method: string, p: string, body?: object) =>
      t.call(method, p, { token: owner.token, ...(body ? { body } : {}) });
    await call("POST", `${repo.path}/issues`, { title: "first title" });
    await call("POST", `${repo.path}/issues`, { title: "the blocker" });
    await call("POST", `${secret.path}/issues`, { title: "classified blocker" });
    path = `${repo.path}/issues/1`;
    const label = (await call("POST", `${repo.path}/labels`, { name: "bug", color: "ff0000" })).json.id;
    const v1 = (await call("POST", `${repo.path}/milestones`, { title: "v1" })).json.id;
    const v2 = (await call("POST", `${repo.path}/milestones`, { title: "v2" })).json.id;
    await call("POST", `${path}/comments`, { body: "a plain comment" });
    await call("POST", `${path}/labels`, { labels: [label] });
    await call("PATCH", path, { milestone: v1 });
    await call("PATCH", path, { milestone: v2, assignees: [owner.name], title: "second title" });
    await call("POST", `${path}/times`, { time: 90 });
    await call("POST", `${path}/dependencies`, { index: 2 });
    await call("POST", `${path}/dependencies`, { owner: owner.name, repo: "hidden-story", index: 1 });
    await call("PUT", `${path}/lock`, { lock_reason: "Resolved" });
    await call("DELETE", `${path}/lock`);
    await call("DELETE", `${path}/dependencies`, { index: 2 });
    await call("PATCH", `${secret.path}/issues/1`, { state: "closed" });
    expect((await call("PATCH", path, { state: "closed" })).status).toBe(201);
    const res = await t.call("GET", `${path}/timeline`, { token: owner.token });
    expect(res.status).toBe(200);
    events = res.json;
  });
  afterAll(() => t?.close());

  const ofType = (type: string) => events.filter((e) => e.type === type);

  it("lists comments and events oldest first, by Forgejo's type names", () => {
    expect(events.map((e) => e.type)).toEqual([
      "comment",
      "label",
      "milestone",
      // One edit's events come in the order Kiln applies them: title, milestone, assignees.
      "change_title",
      "milestone",
      "assignees",
      "add_time_manual",
      "add_dependency",
      "add_dependency",
      "lock",
      "unlock",
      "remove_dependency",
      "close",
    ]);
    expect(events[0]).toMatchObject({
      body: "a plain comment",
      user: { login: owner.name },
      html_url: `http://kiln.test/${owner.name}/story/issues/1#issuecomment-${events[0]?.id}`,
      ref_action: "none",
    });
  });

  it("shows what each event refers to", () => {
    expect(ofType("label")[0]?.label?.name).toBe("bug");
    const [first, second] = ofType("milestone");
    expect([first?.old_milestone, first?.milestone?.title]).toEqual([null, "v1"]);
    expect([second?.old_milestone?.title, second?.milestone?.title]).toEqual(["v1", "v2"]);
    expect(ofType("assignees")[0]).toMatchObject({
      assignee: { login: owner.name },
      removed_assignee: false,
    });
    expect(ofType("change_title")[0]).toMatchObject({ old_title: "first title", new_title: "second title" });
    expect(ofType("add_time_manual")[0]?.tracked_time).toMatchObject({ time: 90, user_name: owner.name });
    // Forgejo reads the stored seconds out with util.SecToTime.
    expect(ofType("add_time_manual")[0]?.body).toBe("1 minute 30 seconds");
    expect(ofType("lock")[0]?.body).toBe("Resolved");
    expect(ofType("remove_dependency")[0]?.dependent_issue).toMatchObject({
      number: 2,
      title: "the blocker",
    });
  });

  it("leaves out dependency events on issues the caller may not read", async () => {
    const asOwner = ofType("add_dependency").map((e) => e.dependent_issue?.title);
    expect(asOwner).toEqual(["the blocker", "classified blocker"]);
    for (const token of [outsider.token, undefined]) {
      const res = await t.call("GET", `${path}/timeline`, token ? { token } : {});
      expect(res.status).toBe(200);
      expect(res.text).not.toContain("classified");
      expect(res.json.filter((e: Event) => e.type === "add_dependency")).toHaveLength(1);
      expect(res.headers.get("X-Total-Count")).toBe(String(events.length - 1));
    }
  });

  it("counts and pages only what the caller may see", async () => {
    const all = (await t.call("GET", `${path}/timeline`, { token: outsider.token })).json as Event[];
    expect(all).toHaveLength(events.length - 1);
    const seen: Event[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await t.call("GET", `${path}/timeline?page=${page}&limit=4`, { token: outsider.token });
      expect(res.headers.get("X-Total-Count"), `page ${page}`).toBe(String(all.length));
      const link = res.headers.get("Link") ?? "";
      expect(link.includes('rel="next"'), `page ${page}`).toBe(page * 4 < all.length);
      if (page < 3) expect(link).toContain(`page=3>; rel="last"`);
      seen.push(...res.json);
    }
    expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it("pages on request and filters by update time", async () => {
    const page = await t.call("GET", `${path}/timeline?page=2&limit=5`, { token: owner.token });
    expect(page.json.map((e: Event) => e.type)).toEqual(events.slice(5, 10).map((e) => e.type));
    expect(page.headers.get("X-Total-Count")).toBe(String(events.length));
    const future = await t.call("GET", `${path}/timeline?since=2999-01-01T00:00:00Z`, { token: owner.token });
    expect(future.json).toEqual([]);
    expect((await t.call("GET", `${path}/timeline?before=soon`, { token: owner.token })).status).toBe(422);
    expect((await t.call("GET", `${secret.path}/issues/1/timeline`, { token: outsider.token })).status).toBe(
      404,
    );
  });
});
