import { execFileSync } from "node:child_process";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const git = (gitdir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" }).trim();

/**
 * Required status checks of a branch protection, driven as a Forgejo client drives them: the rule
 * through `branch_protections`, statuses through `statuses/{sha}`, the verdict read from
 * `GET …/pulls/{index}` and met by `POST …/merge`.
 */
describe.each(DIALECTS)("required status checks on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let ci: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let n = 0;

  async function pull() {
    n++;
    const branch = `checked-${n}`;
    await commitWithGit(repo.gitdir, branch, { [`checked-${n}.txt`]: "x\n" }, `Checked change ${n}`);
    const res = await t.call("POST", `${repo.path}/pulls`, {
      token: owner.token,
      body: { head: branch, base: "main", title: `Checked ${n}` },
    });
    expect(res.status).toBe(201);
    return { index: res.json.number as number, head: res.json.head.sha as string };
  }
  const report = async (sha: string, context: string, state: string) => {
    const res = await t.call("POST", `${repo.path}/statuses/${sha}`, {
      token: ci.token,
      body: { context, state, target_url: "http://ci.test/1", description: state },
    });
    expect(res.status).toBe(201);
  };
  const merge = (index: number, body: Record<string, unknown> = { Do: "merge" }) =>
    t.call("POST", `${repo.path}/pulls/${index}/merge`, { token: owner.token, body });
  const mergeable = async (index: number) =>
    (await t.call("GET", `${repo.path}/pulls/${index}`, { token: reader.token })).json.mergeable as boolean;
  const protect = (body: Record<string, unknown>) =>
    t.call("POST", `${repo.path}/branch_protections`, {
      token: owner.token,
      body: { rule_name: "main", enable_status_check: true, ...body },
    });
  const unprotect = () => t.call("DELETE", `${repo.path}/branch_protections/main`, { token: owner.token });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    ci = await t.user();
    reader = await t.user();
    repo = await createRepo(t, owner, "checked", { private: true });
    for (const [user, permission] of [
      [ci, "write"],
      [reader, "read"],
    ] as const) {
      await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
    }
  });
  afterAll(() => t?.close());

  it("merges only when every required context (globs included) reports success, naming what is not", async () => {
    const pr = await pull();
    expect(await mergeable(pr.index)).toBe(true);
    expect((await protect({ status_check_contexts: ["ci/*", "lint"] })).status).toBe(201);
    expect(await mergeable(pr.index)).toBe(false);
    const none = await merge(pr.index);
    expect(none.status).toBe(422);
    expect(none.json.message).toBe(
      "not allowed to merge [reason: Not all required status checks successful (ci/*: missing, lint: missing)]",
    );

    await report(pr.head, "ci/build", "pending");
    await report(pr.head, "lint", "success");
    expect((await merge(pr.index)).json.message).toBe(
      "not allowed to merge [reason: Not all required status checks successful (ci/build: pending)]",
    );
    await report(pr.head, "ci/build", "failure");
    await report(pr.head, "ci/test/unit", "error");
    expect((await merge(pr.index)).json.message).toBe(
      "not allowed to merge [reason: Not all required status checks successful (ci/build: failure, ci/test/unit: error)]",
    );
    await report(pr.head, "ci/build", "success");
    await report(pr.head, "ci/test/unit", "success");
    // A context no pattern names does not hold the merge back.
    await report(pr.head, "coverage", "failure");
    expect(await mergeable(pr.index)).toBe(true);
    const base = git(repo.gitdir, "rev-parse", "main");
    expect((await merge(pr.index)).status).toBe(200);
    expect(git(repo.gitdir, "rev-parse", "main^1")).toBe(base);
    await unprotect();
  });

  it("without patterns, requires the head's statuses to exist and all be success", async () => {
    const pr = await pull();
    await protect({ status_check_contexts: [] });
    expect((await merge(pr.index)).json.message).toBe(
      "not allowed to merge [reason: Not all required status checks successful (no status reported)]",
    );
    await report(pr.head, "any", "warning");
    expect(await mergeable(pr.index)).toBe(false);
    await report(pr.head, "any", "success");
    expect(await mergeable(pr.index)).toBe(true);
    expect((await merge(pr.index)).status).toBe(200);
    await unprotect();
  });

  it("checks only the current head: statuses of an older head do not count", async () => {
    const pr = await pull();
    await protect({ status_check_contexts: ["ci"] });
    await report(pr.head, "ci", "success");
    expect(await mergeable(pr.index)).toBe(true);
    await commitWithGit(repo.gitdir, `checked-${n}`, { "more.txt": "more\n" }, "A new head");
    expect(await mergeable(pr.index)).toBe(false);
    expect((await merge(pr.index)).json.message).toMatch(/\(ci: missing\)\]$/);
    await unprotect();
  });

  it("merges a merge scheduled for when checks succeed once the last required status arrives", async () => {
    const pr = await pull();
    await protect({ status_check_contexts: ["ci"] });
    const scheduled = await merge(pr.index, { Do: "merge", merge_when_checks_succeed: true });
    expect(scheduled.status).toBe(201);
    await report(pr.head, "ci", "pending");
    expect((await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: owner.token })).json.merged).toBe(
      false,
    );
    await report(pr.head, "ci", "success");
    const json = (await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: owner.token })).json;
    expect(json).toMatchObject({ merged: true, state: "closed" });
    expect(json.merged_by.login).toBe(owner.name);
    await unprotect();
  });

  it("answers at once for a rule of hostile patterns over long contexts, refusing what it cannot check", async () => {
    const pr = await pull();
    // Long patterns over 255-character contexts: matched in full, the 49 hostile patterns would take
    // hundreds of millions of matcher steps on every read of the pull request; past the verdict's
    // step budget a pattern is refused unchecked.
    const hostile = (i: number) => `${"{a,b}".repeat(6)}${"*a".repeat(110)}${i}`.slice(0, 255);
    const patterns = [...Array.from({ length: 49 }, (_, i) => hostile(i)), "ci/build"];
    expect((await protect({ status_check_contexts: patterns })).status).toBe(201);
    for (let i = 0; i < 8; i++) await report(pr.head, `${"a".repeat(250)}${i}`, "success");
    await report(pr.head, "ci/build", "success");
    const res = await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.json.mergeable).toBe(false);
    const refused = await merge(pr.index);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain(`${hostile(48)}: too complex to check`);
    expect(refused.json.message).not.toContain("ci/build");
    await unprotect();
  });

  it("bounds the patterns a rule may require", async () => {
    const many = await protect({ status_check_contexts: Array.from({ length: 51 }, (_, i) => `c${i}`) });
    expect(many.status).toBe(422);
    const long = await protect({ status_check_contexts: ["x".repeat(256)] });
    expect(long.status).toBe(422);
  });
});
