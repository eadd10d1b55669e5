import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64 } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const WORKFLOW = `name: Build it
on:
  workflow_dispatch:
    inputs:
      target:
        description: Where to deploy
        required: true
      level:
        default: "3"
      dry:
        type: boolean
jobs:
  build:
    runs-on: docker
  test:
    name: Run tests
    runs-on: [docker, big]
    needs: build
`;

describe.each(DIALECTS)("Actions runs, tasks, jobs and runner tokens over the API on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let admin: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: string;
  let priv: string;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    admin = await t.user({ admin: true });
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    const mk = async (isPrivate: boolean) => {
      const res = await t.call("POST", "/user/repos", {
        token: alice.token,
        body: { name: uniqueName("ci"), private: isPrivate, auto_init: true },
      });
      expect(res.status).toBe(201);
      return res.json.full_name as string;
    };
    repo = await mk(false);
    priv = await mk(true);
    for (const r of [repo, priv]) {
      const put = await t.call("POST", `/repos/${r}/contents/.forgejo/workflows/ci.yml`, {
        token: alice.token,
        body: { content: b64(WORKFLOW), message: "ci" },
      });
      expect(put.status).toBe(201);
      for (const [user, permission] of [
        [writer, "write"],
        [reader, "read"],
      ] as const) {
        const res = await t.call("PUT", `/repos/${r}/collaborators/${user.name}`, {
          token: alice.token,
          body: { permission },
        });
        expect(res.status).toBe(204);
      }
    }
  });
  afterAll(async () => t?.close());

  const dispatch = (r: string, token: string, body: unknown, file = "ci.yml") =>
    t.call("POST", `/repos/${r}/actions/workflows/${file}/dispatches`, { token, body });

  it("records a dispatched run as waiting, answering 204 or the run", async () => {
    const quiet = await dispatch(repo, writer.token, { ref: "main", inputs: { target: "prod" } });
    expect(quiet.status).toBe(204);
    const loud = await dispatch(repo, writer.token, {
      ref: "refs/heads/main",
      inputs: { target: "staging", dry: "on" },
      return_run_info: true,
    });
    expect(loud.status).toBe(201);
    // Jobs by their keys, as Forgejo's DispatchWorkflowRun; a checked boolean input is "true".
    expect(loud.json).toEqual({ id: expect.any(Number), run_number: 2, jobs: ["build", "test"] });
    const stored = await t.services.ctx.db
      .selectFrom("actionRun")
      .select("inputs")
      .where("id", "=", loud.json.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.inputs)).toEqual({ target: "staging", level: "3", dry: "true" });

    const runs = await t.call("GET", `/repos/${repo}/actions/runs`, { token: reader.token });
    expect(runs.status).toBe(200);
    expect(runs.json.total_count).toBe(2);
    expect(runs.json.workflow_runs[0]).toMatchObject({
      id: loud.json.id,
      name: "Build it",
      event: "workflow_dispatch",
      head_branch: "main",
      run_number: 2,
      status: "waiting",
      workflow_id: "ci.yml",
      triggering_actor: { login: writer.name },
    });
    expect(runs.json.workflow_runs[0].head_sha).toMatch(/^[0-9a-f]{40}$/);
    const one = await t.call("GET", `/repos/${repo}/actions/runs/${loud.json.id}`);
    expect(one.status).toBe(200);
    expect(one.json.run_number).toBe(2);
    const filtered = await t.call("GET", `/repos/${repo}/actions/runs?run_number=1&status=waiting`);
    expect(filtered.json.workflow_runs.map((r: { run_number: number }) => r.run_number)).toEqual([1]);
    expect((await t.call("GET", `/repos/${repo}/actions/runs?status=bogus`)).status).toBe(400);
    expect((await t.call("GET", `/repos/${repo}/actions/runs?event=push`)).json.total_count).toBe(0);
    expect((await t.call("GET", `/repos/${repo}/actions/runs/999999`)).status).toBe(404);
  });

  it("refuses a missing workflow, ref or required input as Forgejo", async () => {
    expect(
      (await dispatch(repo, writer.token, { ref: "main", inputs: { target: "x" } }, "nope.yml")).status,
    ).toBe(404);
    expect(
      (await dispatch(repo, writer.token, { ref: "no-such-branch", inputs: { target: "x" } })).status,
    ).toBe(404);
    const missing = await dispatch(repo, writer.token, { ref: "main" });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain("Where to deploy");
    expect((await dispatch(repo, writer.token, { ref: "" })).status).toBe(422);
    expect(
      (await dispatch(repo, writer.token, { ref: "main", inputs: { x: "y".repeat(70_000) } })).status,
    ).toBe(422);
  });

  it("lets only Actions writers dispatch and only readers see runs", async () => {
    expect((await dispatch(repo, reader.token, { ref: "main", inputs: { target: "x" } })).status).toBe(403);
    expect((await dispatch(priv, outsider.token, { ref: "main", inputs: { target: "x" } })).status).toBe(404);
    expect((await t.call("GET", `/repos/${priv}/actions/runs`, { token: outsider.token })).status).toBe(404);
    expect((await t.call("GET", `/repos/${priv}/actions/runs`)).status).toBe(404);
    expect((await t.call("GET", `/repos/${priv}/actions/tasks`, { token: reader.token })).status).toBe(200);
  });

  it("lists tasks in Forgejo's ActionTaskResponse", async () => {
    const run = await dispatch(priv, alice.token, {
      ref: "main",
      inputs: { target: "x" },
      return_run_info: true,
    });
    expect(run.status).toBe(201);
    const jobs = await t.services.ctx.db
      .selectFrom("actionRunJob")
      .selectAll()
      .where("runId", "=", run.json.id)
      .execute();
    const { actionRuns } = await import("@kiln/storage");
    const first = jobs.find((j) => j.name === "build");
    if (!first) throw new Error("no build job");
    await actionRuns.insertTask(t.services.ctx.db, first, "running");
    const tasks = await t.call("GET", `/repos/${priv}/actions/tasks`, { token: reader.token });
    expect(tasks.status).toBe(200);
    expect(tasks.json.total_count).toBe(1);
    expect(tasks.json.workflow_runs[0]).toMatchObject({
      name: "build",
      status: "running",
      run_number: 1,
      event: "workflow_dispatch",
      display_title: "Build it",
      workflow_id: "ci.yml",
      head_branch: "main",
    });
    expect(
      (await t.call("GET", `/repos/${priv}/actions/tasks?status=nope`, { token: reader.token })).status,
    ).toBe(400);
  });

  it("searches waiting and running jobs by label at every scope", async () => {
    const labels = async (path: string, token: string) => {
      const res = await t.call("GET", path, { token });
      expect(res.status, path).toBe(200);
      return (res.json as { name: string; runs_on: string[] }[]).map((j) => j.name).sort();
    };
    expect(await labels(`/repos/${repo}/actions/runners/jobs?labels=docker`, alice.token)).toEqual([
      "build",
      "build",
    ]);
    // "Run tests" needs build: it is blocked, and only waiting or running jobs are searched.
    expect(await labels(`/repos/${repo}/actions/runners/jobs?labels=docker,big`, alice.token)).toEqual([
      "build",
      "build",
    ]);
    expect(await labels(`/repos/${repo}/actions/runners/jobs?labels=big`, alice.token)).toEqual([]);
    expect(await labels(`/repos/${repo}/actions/runners/jobs`, alice.token)).toEqual([]);
    expect((await labels("/user/actions/runners/jobs?labels=docker", alice.token)).length).toBe(3);
    expect((await labels("/user/actions/runners/jobs?labels=docker", outsider.token)).length).toBe(0);
    expect((await labels("/admin/runners/jobs?labels=docker", admin.token)).length).toBe(3);
    expect((await t.call("GET", "/admin/runners/jobs", { token: alice.token })).status).toBe(403);
    // Jobs name private repositories' work: a public-only token searches none, at any scope.
    const publicOnly = async (user: TestUser) =>
      (
        await t.services.tokens.create(await t.services.users.getByName(user.name), `po-${user.id}`, [
          "public-only",
          "all",
        ])
      ).secret;
    const alicePublic = await publicOnly(alice);
    const adminPublic = await publicOnly(admin);
    for (const [path, token] of [
      ["/user/actions/runners/jobs?labels=docker", alicePublic],
      [`/repos/${repo}/actions/runners/jobs?labels=docker`, alicePublic],
      ["/admin/runners/jobs?labels=docker", adminPublic],
    ] as const) {
      const res = await t.call("GET", path, { token });
      expect(res.status, path).toBe(403);
      expect(res.text).not.toContain("build");
    }
    expect((await t.call("GET", `/repos/${repo}/actions/runners/jobs`, { token: writer.token })).status).toBe(
      403,
    );
  });

  it("keeps one registration token per scope, shown to whoever manages it", async () => {
    const first = await t.call("GET", `/repos/${repo}/actions/runners/registration-token`, {
      token: alice.token,
    });
    expect(first.status).toBe(200);
    expect(first.json.token).toMatch(/^[0-9a-f]{40}$/);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const again = await t.call("GET", `/repos/${repo}/actions/runners/registration-token`, {
      token: alice.token,
    });
    expect(again.json.token).toBe(first.json.token);
    const other = await t.call("GET", `/repos/${priv}/actions/runners/registration-token`, {
      token: alice.token,
    });
    expect(other.json.token).not.toBe(first.json.token);
    const user = await t.call("GET", "/user/actions/runners/registration-token", { token: alice.token });
    expect(user.json.token).not.toBe(first.json.token);
    const global = await t.call("GET", "/admin/runners/registration-token", { token: admin.token });
    expect(global.status).toBe(200);
    const org = uniqueName("org");
    expect((await t.call("POST", "/orgs", { token: alice.token, body: { username: org } })).status).toBe(201);
    const orgToken = await t.call("GET", `/orgs/${org}/actions/runners/registration-token`, {
      token: alice.token,
    });
    expect(orgToken.status).toBe(200);
    for (const [path, token, status] of [
      [`/repos/${repo}/actions/runners/registration-token`, writer.token, 403],
      [`/repos/${priv}/actions/runners/registration-token`, outsider.token, 404],
      [`/orgs/${org}/actions/runners/registration-token`, outsider.token, 403],
      ["/admin/runners/registration-token", alice.token, 403],
    ] as const) {
      const res = await t.call("GET", path, { token });
      expect(res.status, path).toBe(status);
      expect(res.text).not.toContain(first.json.token);
      expect(res.text).not.toContain(orgToken.json.token);
    }
    const rows = await t.services.ctx.db.selectFrom("actionRunnerToken").select("token").execute();
    for (const row of rows) expect(row.token).not.toBe(first.json.token);
  });
});
