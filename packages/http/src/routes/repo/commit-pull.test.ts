import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("the pull request of a commit on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "merging");
    secret = await createRepo(t, owner, "merging-secret", { private: true });
  });
  afterAll(() => t?.close());

  /** Opens a pull request from a new branch with one file and merges it; answers the merge commit. */
  async function mergedPull(
    path: string,
    branch: string,
  ): Promise<{ index: number; sha: string; head: string }> {
    expect(
      (await t.call("POST", `${path}/branches`, { token: owner.token, body: { new_branch_name: branch } }))
        .status,
    ).toBe(201);
    const write = await t.call("POST", `${path}/contents/${branch}.txt`, {
      token: owner.token,
      body: { content: Buffer.from(branch).toString("base64"), branch, message: `Add ${branch}` },
    });
    const pull = await t.call("POST", `${path}/pulls`, {
      token: owner.token,
      body: { head: branch, base: "main", title: `Merge ${branch}` },
    });
    expect(pull.status).toBe(201);
    const merged = await t.call("POST", `${path}/pulls/${pull.json.number}/merge`, {
      token: owner.token,
      body: { Do: "merge" },
    });
    expect(merged.status).toBe(200);
    const after = await t.call("GET", `${path}/pulls/${pull.json.number}`, { token: owner.token });
    return { index: pull.json.number, sha: after.json.merge_commit_sha, head: write.json.commit.sha };
  }

  it("finds the merged pull request by its merge commit", async () => {
    const { index, sha, head } = await mergedPull(repo.path, "feature");
    const res = await t.call("GET", `${repo.path}/commits/${sha}/pull`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ number: index, merged: true, merge_commit_sha: sha });
    expect((await t.call("GET", `${repo.path}/commits/${head}/pull`)).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/commits/${"0".repeat(40)}/pull`)).status).toBe(404);
  });

  it("hides a private repository's pull requests from outsiders", async () => {
    const { sha } = await mergedPull(secret.path, "hidden");
    expect((await t.call("GET", `${secret.path}/commits/${sha}/pull`, { token: owner.token })).status).toBe(
      200,
    );
    expect(
      (await t.call("GET", `${secret.path}/commits/${sha}/pull`, { token: outsider.token })).status,
    ).toBe(404);
  });
});
