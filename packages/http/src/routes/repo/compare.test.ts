import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe.each(DIALECTS)("GET /compare/{basehead} on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;

  let as: AsCaller;

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner, outsider],
    } = await openWorld(dialect, {
      users: ["owner", "outsider"],
      repo: { name: "compared", private: true },
    }));
    expect((await as(owner, "POST", "/branches", { new_branch_name: "feature/x" })).status).toBe(201);
    for (const [file, content] of [
      ["a.txt", "a"],
      ["b.txt", "b"],
    ]) {
      const res = await as(owner, "POST", `/contents/${file}`, {
        content: b64(content as string),
        branch: "feature/x",
      });
      expect(res.status).toBe(201);
    }
    const main = await as(owner, "POST", "/contents/main-only.txt", { content: b64("m"), branch: "main" });
    expect(main.status).toBe(201);
  });
  afterAll(() => t?.close());

  it("compares from the merge base with base...head: the head's commits, newest first, and its files", async () => {
    const res = await as(owner, "GET", "/compare/main...feature/x");
    expect(res.status).toBe(200);
    expect(res.json.total_commits).toBe(2);
    expect(res.json.commits.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual([
      "Add b.txt",
      "Add a.txt",
    ]);
    expect(res.json.files).toEqual([
      { filename: "a.txt", status: "added" },
      { filename: "b.txt", status: "added" },
    ]);
    expect(res.json.commits[0].files).toBeDefined();
  });

  it("compares the two tips directly with base..head, and takes owner:branch for a head", async () => {
    const direct = await as(owner, "GET", "/compare/main..owner:feature/x?files=false");
    expect(direct.status).toBe(200);
    expect(direct.json.total_commits).toBe(2);
    expect(direct.json.files.map((f: { filename: string }) => f.filename)).toEqual([
      "a.txt",
      "b.txt",
      "main-only.txt",
    ]);
    expect(direct.json.commits[0].files).toBeUndefined();
    expect((await as(owner, "GET", "/compare/main...owner/compared:feature/x")).status).toBe(200);
  });

  it("answers 404 for an unknown ref, a head in another repository (no forks yet) and an outsider", async () => {
    expect((await as(owner, "GET", "/compare/main...nope")).status).toBe(404);
    expect((await as(owner, "GET", "/compare/nope...main")).status).toBe(404);
    expect((await as(owner, "GET", "/compare/main...someone:feature/x")).status).toBe(404);
    expect((await as(owner, "GET", "/compare/main...owner/other:feature/x")).status).toBe(404);
    expect((await as(outsider, "GET", "/compare/main...feature/x")).status).toBe(404);
    expect((await as(null, "GET", "/compare/main...feature/x")).status).toBe(404);
  });

  it("compares a lone head with the default branch", async () => {
    const res = await as(owner, "GET", "/compare/feature/x");
    expect(res.status).toBe(200);
    expect(res.json.total_commits).toBe(2);
  });
});
