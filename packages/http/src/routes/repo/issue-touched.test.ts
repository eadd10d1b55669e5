import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../../../test/support.js";
import { openWorld, type World } from "../../../test/world.js";

/**
 * Changes Forgejo announces to no webhook (a due date, an edit that changes nothing a hook
 * reports) still notify the participants, and queue no delivery for hooks that take
 * every issue event, nor for a hook that takes everything (as Forgejo's web form and Forgejo
 * databases migrated to Kiln can set it).
 */
describe.each(DIALECTS)("changes no hook reports (%s)", (dialect) => {
  let world: World<readonly ["alice", "bob"]>;
  let alice: TestUser;
  let bob: TestUser;
  let hookId: number;

  const tasks = async () =>
    (
      await world.t.services.ctx.db
        .selectFrom("hook_task")
        .select(["eventType", "payload"])
        .where("hookId", "=", hookId)
        .orderBy("id")
        .execute()
    ).map((task) => `${task.eventType}:${JSON.parse(task.payload).action}`);
  const threads = async (user: TestUser) =>
    (await world.t.call("GET", "/notifications?all=true", { token: user.token })).json as {
      subject: { title: string };
      updated_at: string;
    }[];

  beforeAll(async () => {
    world = await openWorld(dialect, { users: ["alice", "bob"], repo: { name: "touched" } });
    [alice, bob] = world.users;
    const hook = await world.as(alice, "POST", "/hooks", {
      type: "forgejo",
      config: { url: "http://127.0.0.1:9/", content_type: "json" },
      events: ["issues", "issue_comment", "pull_request"],
      active: true,
    });
    expect(hook.status, hook.text).toBe(201);
    hookId = hook.json.id;
    await world.t.services.ctx.db
      .updateTable("webhook")
      .set({
        events: JSON.stringify({ push_only: false, send_everything: true, choose_events: false, events: {} }),
      })
      .where("id", "=", hookId)
      .execute();
  });
  afterAll(async () => {
    await world?.t.close();
  });

  it("a due date notifies the poster and sends no webhook", async () => {
    const opened = await world.as(bob, "POST", "/issues", { title: "Needs a date", body: "When?" });
    expect(opened.status, opened.text).toBe(201);
    expect(await tasks()).toEqual(["issues:opened"]);
    expect(await threads(bob)).toEqual([]);

    const set = await world.as(alice, "POST", `/issues/${opened.json.number}/deadline`, {
      due_date: "2030-01-02T00:00:00Z",
    });
    expect(set.status, set.text).toBe(201);
    expect((await threads(bob)).map((n) => n.subject.title)).toEqual(["Needs a date"]);
    expect(await tasks()).toEqual(["issues:opened"]);
  });

  it("an edit that changes nothing a hook reports notifies and sends no webhook", async () => {
    const opened = await world.as(bob, "POST", "/issues", { title: "Same body", body: "Unchanged" });
    expect(opened.status, opened.text).toBe(201);
    const before = await tasks();
    const edited = await world.as(alice, "PATCH", `/issues/${opened.json.number}`, { body: "Unchanged" });
    expect(edited.status, edited.text).toBe(201);
    expect((await threads(bob)).map((n) => n.subject.title)).toContain("Same body");
    expect(await tasks()).toEqual(before);
    // A change a hook does report still queues its delivery.
    const renamed = await world.as(alice, "PATCH", `/issues/${opened.json.number}`, { title: "Renamed" });
    expect(renamed.status, renamed.text).toBe(201);
    expect(await tasks()).toEqual([...before, "issues:edited"]);
  });
});
