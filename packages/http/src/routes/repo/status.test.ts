import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("commit statuses on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let sha: string;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "ci");
    secret = await createRepo(t, owner, "hidden", { private: true });
    await t.call("PUT", `${repo.path}/collaborators/${reader.name}`, {
      token: owner.token,
      body: { permission: "read" },
    });
    sha = (await t.call("GET", `${repo.path}/branches/main`)).json.commit.id;
  });
  afterAll(() => t?.close());

  const post = (path: string, body: object, token = owner.token) =>
    t.call("POST", `${path}/statuses/${sha}`, { token, body });

  it("records a status on a commit and answers it in Forgejo's shape", async () => {
    const res = await post(repo.path, {
      state: "pending",
      target_url: "https://ci.example/1",
      description: "build queued",
      context: "ci/build",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.any(Number),
      status: "pending",
      target_url: "https://ci.example/1",
      description: "build queued",
      context: "ci/build",
      url: `http://kiln.test/api/v1${repo.path}/statuses/${sha}`,
      creator: { login: owner.name },
    });
  });

  it("lists a commit's statuses by sha and by branch, newest first, filtered by state", async () => {
    await post(repo.path, { state: "success", context: "ci/build" });
    await post(repo.path, { state: "failure", context: "ci/lint" });
    const bySha = await t.call("GET", `${repo.path}/statuses/${sha}`);
    expect(bySha.status).toBe(200);
    expect(bySha.headers.get("x-total-count")).toBe("3");
    expect(bySha.json.map((s: { status: string }) => s.status)).toEqual(["failure", "success", "pending"]);
    const byRef = await t.call("GET", `${repo.path}/commits/main/statuses?sort=oldest&state=success`);
    expect(byRef.json.map((s: { status: string; context: string }) => [s.status, s.context])).toEqual([
      ["success", "ci/build"],
    ]);
    const bad = await t.call("GET", `${repo.path}/statuses/${sha}?state=bogus`);
    expect(bad.status).toBe(422);
  });

  it("combines the latest status of each context into the worst state", async () => {
    const res = await t.call("GET", `${repo.path}/commits/main/status`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      state: "failure",
      sha,
      total_count: 2,
      commit_url: `http://kiln.test/api/v1${repo.path}/commits/${sha}`,
      url: `http://kiln.test/api/v1${repo.path}/commits/${sha}/status`,
      repository: { full_name: `${owner.name}/ci` },
    });
    expect(res.json.statuses.map((s: { context: string; status: string }) => [s.context, s.status])).toEqual([
      ["ci/build", "success"],
      ["ci/lint", "failure"],
    ]);
    await post(repo.path, { state: "success", context: "ci/lint" });
    expect((await t.call("GET", `${repo.path}/commits/${sha.slice(0, 10)}/status`)).json.state).toBe(
      "success",
    );
  });

  it("answers Forgejo's empty combined status for a commit without statuses", async () => {
    const other = await createRepo(t, owner, "quiet");
    const res = await t.call("GET", `${other.path}/commits/main/status`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      state: "",
      sha: "",
      total_count: 0,
      statuses: null,
      repository: null,
      commit_url: "",
      url: "",
    });
  });

  it("refuses a status on a commit that does not exist (404) and an invalid state (422)", async () => {
    const missing = await t.call("POST", `${repo.path}/statuses/${"0".repeat(40)}`, {
      token: owner.token,
      body: { state: "success" },
    });
    expect(missing.status).toBe(404);
    expect((await t.call("GET", `${repo.path}/commits/no-such-branch/status`)).status).toBe(404);
    const invalid = await post(repo.path, { state: "great" });
    expect(invalid.status).toBe(422);
    const long = await post(repo.path, { state: "success", context: "x".repeat(256) });
    expect(long.status).toBe(422);
  });

  it("lets only writers report statuses, and hides a private repository's", async () => {
    expect((await post(repo.path, { state: "success" }, reader.token)).status).toBe(403);
    expect(
      (await t.call("POST", `${repo.path}/statuses/${sha}`, { body: { state: "success" } })).status,
    ).toBe(401);
    expect((await post(secret.path, { state: "success" }, outsider.token)).status).toBe(404);
    expect(
      (await t.call("GET", `${secret.path}/commits/main/status`, { token: outsider.token })).status,
    ).toBe(404);
  });
});
