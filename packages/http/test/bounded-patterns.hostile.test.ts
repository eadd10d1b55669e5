import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingSteps, RESPONSIVE_MS, whileAttacking } from "./bounded-work.js";
import { b64, createRepo } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

/**
 * Patterns and inputs a hostile user controls on their own repository (issue: bounded work, cases
 * 1–5 and 9), replayed at sizes that stalled the server for seconds to minutes before: a
 * backtracking branch filter, rule name and file pattern, the most and longest file patterns a
 * rule may hold, template expansion of unclosed `${`, and a change request of many files. Each
 * answers correctly, within a bounded number of matcher steps, while an unrelated request answers.
 */
describe.each(DIALECTS)("bounded work on patterns and requests on %s", (dialect) => {
  let t: TestApp;
  let url: string;
  let owner: TestUser;
  /** Where each `*a` of a crafted glob backtracks over a subject of `a`s. */
  const crafted = (pairs: number) => `${"*a".repeat(pairs)}b`;
  const A100 = "a".repeat(100);

  beforeAll(async () => {
    t = await openTestApp(dialect, { api: { maxChangeFiles: 20 } }, { listen: true });
    url = t.url as string;
    owner = await t.user({ name: "hostile" });
  });
  afterAll(() => t?.close());

  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { token: owner.token, ...(body !== undefined ? { body } : {}) });

  it("1. matches a backtracking webhook branch filter in linear time", async () => {
    const repo = await createRepo(t, owner, "filtered");
    const filter = crafted(13);
    const hook = await as("POST", `${repo.path}/hooks`, {
      type: "forgejo",
      config: { url: "http://127.0.0.1:9/hook", content_type: "json" },
      events: ["create"],
      branch_filter: filter,
      active: true,
    });
    expect(hook.status).toBe(201);
    const { result, slowest } = await whileAttacking(url, () =>
      countingSteps(() => as("POST", `${repo.path}/branches`, { new_branch_name: A100 })),
    );
    expect(result.result.status).toBe(201);
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    expect(result.steps).toBeLessThan(10 * (filter.length + 2) * (A100.length + 1));
    const deliveries = async () => (await as("GET", `${repo.path}/hooks/${hook.json.id}/deliveries`)).json;
    expect(await deliveries()).toHaveLength(0);
    expect(
      (await as("POST", `${repo.path}/branches`, { new_branch_name: `${"a".repeat(99)}b` })).status,
    ).toBe(201);
    expect(await deliveries()).toHaveLength(1);
  });

  it("2. matches a backtracking branch protection rule name on every branch operation in linear time", async () => {
    const repo = await createRepo(t, owner, "ruled");
    const rule = crafted(40);
    expect((await as("POST", `${repo.path}/branch_protections`, { rule_name: rule })).status).toBe(201);
    const { result, slowest } = await whileAttacking(url, () =>
      countingSteps(async () => {
        expect((await as("POST", `${repo.path}/branches`, { new_branch_name: A100 })).status).toBe(201);
        const listed = await as("GET", `${repo.path}/branches`);
        expect((await as("DELETE", `${repo.path}/branches/${A100}`)).status).toBe(204);
        return listed;
      }),
    );
    expect(result.result.json.find((b: { name: string }) => b.name === A100)?.protected).toBe(false);
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    expect(result.steps).toBeLessThan(100 * (rule.length + 2) * (A100.length + 1));
    // The rule still protects what it matches.
    const guarded = `${"a".repeat(99)}b`;
    expect((await as("POST", `${repo.path}/branches`, { new_branch_name: guarded })).status).toBe(201);
    expect((await as("GET", `${repo.path}/branches/${guarded}`)).json.protected).toBe(true);
    expect((await as("DELETE", `${repo.path}/branches/${guarded}`)).status).toBe(403);
  });

  it("3–4. checks the most and longest file patterns a rule may hold on concurrent writes in linear time", async () => {
    const repo = await createRepo(t, owner, "patterned");
    // 100 patterns of 250 characters: 125 times `*a`, then a number.
    const many = Array.from({ length: 100 }, (_, i) => `${"*a".repeat(125)}${i}`).join(";");
    const refused = await as("POST", `${repo.path}/branch_protections`, {
      rule_name: "main",
      protected_file_patterns: `${many};one-too-many`,
    });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toMatch("at most 100 patterns");
    const made = await as("POST", `${repo.path}/branch_protections`, {
      rule_name: "main",
      enable_push: true,
      protected_file_patterns: many,
    });
    expect(made.status).toBe(201);
    // 120 `a`s: every pattern is tried to the end, none matches.
    const name = "a".repeat(120);
    const { result, slowest } = await whileAttacking(url, () =>
      countingSteps(() =>
        Promise.all(
          [0, 1, 2, 3].map((i) =>
            as("POST", `${repo.path}/contents/${name}${i}`, { content: b64(`write ${i}`) }),
          ),
        ),
      ),
    );
    expect(result.result.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    expect(result.steps).toBeLessThan(4 * 100 * 10 * 256 * 125);
    const hit = await as("POST", `${repo.path}/contents/${"a".repeat(130)}7`, { content: b64("x") });
    expect(hit.status).toBe(403);
    expect(hit.json.message).toMatch("path is protected");
  });

  it("5. expands a template file of unclosed ${ in linear time", async () => {
    await createRepo(t, owner, "tpl", { empty: true });
    const attack = `${"${".repeat(128 * 1024)}$REPO_NAME`;
    const written = await as("POST", `/repos/${owner.name}/tpl/contents`, {
      files: [
        { operation: "create", path: ".forgejo/template", content: b64("*.txt\n") },
        { operation: "create", path: "big.txt", content: b64(attack) },
      ],
    });
    expect(written.status, written.text).toBe(201);
    expect((await as("PATCH", `/repos/${owner.name}/tpl`, { template: true })).status).toBe(200);
    const { result, slowest } = await whileAttacking(url, () =>
      as("POST", `/repos/${owner.name}/tpl/generate`, { owner: owner.name, name: "made", git_content: true }),
    );
    expect(result.status, result.text).toBe(201);
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    const big = await as("GET", `/repos/${owner.name}/made/contents/big.txt`);
    // Each unclosed `${` is dropped, as Go's os.Expand does; the variable at the end expands.
    expect(Buffer.from(big.json.content, "base64").toString()).toBe("made");
  });

  it("9. refuses a change request of more file operations than [api] MAX_CHANGE_FILES", async () => {
    const repo = await createRepo(t, owner, "bulk");
    const ops = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        operation: "create",
        path: `${prefix}/${i}.txt`,
        content: b64("x"),
      }));
    const refused = await as("POST", `${repo.path}/contents`, { files: ops(21, "over") });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe(
      "files: at most 20 file operations per request ([api] MAX_CHANGE_FILES), 21 given",
    );
    expect((await as("GET", `${repo.path}/contents/over`)).status).toBe(404);
    const { result, slowest } = await whileAttacking(url, () =>
      as("POST", `${repo.path}/contents`, { files: ops(20, "within") }),
    );
    expect(result.status).toBe(201);
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    expect((await as("GET", `${repo.path}/contents/within`)).json).toHaveLength(20);
  });
});
