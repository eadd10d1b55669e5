import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("repository topics on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    writer = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "tools");
    secret = await createRepo(t, owner, "vault", { private: true });
    await t.call("PUT", `${repo.path}/collaborators/${writer.name}`, {
      token: owner.token,
      body: { permission: "write" },
    });
  });
  afterAll(() => t?.close());

  it("replaces the topics, sanitized, and shows them on the repository", async () => {
    const put = await t.call("PUT", `${repo.path}/topics`, {
      token: owner.token,
      body: { topics: [" Go ", "cli", "go", "", "web.dev"] },
    });
    expect(put.status).toBe(204);
    const list = await t.call("GET", `${repo.path}/topics`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ topics: ["go", "cli", "web.dev"] });
    expect(list.headers.get("x-total-count")).toBe("3");
    expect((await t.call("GET", repo.path)).json.topics).toEqual(["go", "cli", "web.dev"]);
    const paged = await t.call("GET", `${repo.path}/topics?limit=2&page=2`);
    expect(paged.json).toEqual({ topics: ["web.dev"] });
  });

  it("refuses invalid names and more than 25 topics with Forgejo's answers, changing nothing", async () => {
    const invalid = await t.call("PUT", `${repo.path}/topics`, {
      token: owner.token,
      body: { topics: ["ok", "-bad", "a".repeat(36)] },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({
      message: "Topic names are invalid",
      invalidTopics: ["-bad", "a".repeat(36)],
    });
    const many = Array.from({ length: 26 }, (_, i) => `t${i}`);
    const tooMany = await t.call("PUT", `${repo.path}/topics`, {
      token: owner.token,
      body: { topics: many },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.json.message).toBe("Exceeding maximum number of topics per repo");
    const one = await t.call("PUT", `${repo.path}/topics/Not%20Valid`, { token: owner.token });
    expect(one.status).toBe(422);
    expect(one.json).toMatchObject({ message: "Topic name is invalid", invalidTopics: "not valid" });
    expect((await t.call("GET", `${repo.path}/topics`)).json.topics).toEqual(["go", "cli", "web.dev"]);
  });

  it("adds and deletes one topic; deleting one it does not carry is 404", async () => {
    expect((await t.call("PUT", `${repo.path}/topics/Rust`, { token: owner.token })).status).toBe(204);
    expect((await t.call("PUT", `${repo.path}/topics/rust`, { token: owner.token })).status).toBe(204);
    expect((await t.call("GET", `${repo.path}/topics`)).json.topics).toEqual([
      "go",
      "cli",
      "web.dev",
      "rust",
    ]);
    expect((await t.call("DELETE", `${repo.path}/topics/cli`, { token: owner.token })).status).toBe(204);
    expect((await t.call("DELETE", `${repo.path}/topics/cli`, { token: owner.token })).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/topics`)).json.topics).toEqual(["go", "web.dev", "rust"]);
  });

  it("refuses a 26th topic added one at a time", async () => {
    const other = await createRepo(t, owner, "full");
    const topics = Array.from({ length: 25 }, (_, i) => `n${i}`);
    expect(
      (await t.call("PUT", `${other.path}/topics`, { token: owner.token, body: { topics } })).status,
    ).toBe(204);
    const extra = await t.call("PUT", `${other.path}/topics/n25`, { token: owner.token });
    expect(extra.status).toBe(422);
    expect(extra.json.message).toBe("Exceeding maximum allowed topics per repo.");
  });

  it("lets only repository admins change topics, and hides a private repository's", async () => {
    expect((await t.call("PUT", `${repo.path}/topics/x`, { token: writer.token })).status).toBe(403);
    expect((await t.call("PUT", `${repo.path}/topics/x`)).status).toBe(401);
    expect((await t.call("GET", `${secret.path}/topics`, { token: outsider.token })).status).toBe(404);
    expect((await t.call("PUT", `${secret.path}/topics/x`, { token: outsider.token })).status).toBe(404);
  });

  it("searches topics counting only the repositories the caller may see", async () => {
    await t.call("PUT", `${secret.path}/topics`, {
      token: owner.token,
      body: { topics: ["go", "classified"] },
    });
    const anonymous = await t.call("GET", "/topics/search?q=");
    const names = (r: { json: { topics: { topic_name: string }[] } }) =>
      r.json.topics.map((x) => x.topic_name);
    expect(names(anonymous)).not.toContain("classified");
    const go = anonymous.json.topics.find((x: { topic_name: string }) => x.topic_name === "go");
    expect(go).toMatchObject({ topic_name: "go", repo_count: 1, id: expect.any(Number) });
    const mine = await t.call("GET", "/topics/search?q=go", { token: owner.token });
    expect(mine.json.topics).toEqual([expect.objectContaining({ topic_name: "go", repo_count: 2 })]);
    expect(names(await t.call("GET", "/topics/search?q=class", { token: owner.token }))).toEqual([
      "classified",
    ]);
    expect(names(await t.call("GET", "/topics/search?q=class", { token: outsider.token }))).toEqual([]);
  });

  it("finds repositories by topic in repository search", async () => {
    const exact = await t.call("GET", "/repos/search?q=go&topic=true", { token: owner.token });
    expect(exact.json.data.map((r: { name: string }) => r.name).sort()).toEqual(["tools", "vault"]);
    const anonymous = await t.call("GET", "/repos/search?q=go&topic=true");
    expect(anonymous.json.data.map((r: { name: string }) => r.name)).toEqual(["tools"]);
    const partial = await t.call("GET", "/repos/search?q=web.d");
    expect(partial.json.data.map((r: { name: string }) => r.name)).toEqual(["tools"]);
  });
});
