import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openHardeningWorld, rawSender } from "./hardening-support.js";
import type { TestRepo } from "./repos.js";
import type { TestApp, TestUser } from "./support.js";

const BEYOND_BIGINT = "9223372036854775808"; // 2^63

describe.each(DIALECTS)("bounded input and no 500s on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let repo: TestRepo;
  const send = rawSender(() => t);

  beforeAll(async () => {
    ({ t, alice, repo } = await openHardeningWorld(dialect));
  });
  afterAll(() => t?.close());

  describe("numbers out of range", () => {
    it("answers an empty page, not 500, for a page beyond 2^63", async () => {
      for (const path of [
        "/orgs",
        "/user/repos",
        "/repos/search",
        "/users/search",
        "/orgs/hard-org/members",
        "/user/orgs",
        `${repo.path}/branches`,
      ]) {
        for (const page of [BEYOND_BIGINT, "9".repeat(30), "9007199254740993"]) {
          const res = await t.call("GET", `${path}?page=${page}&limit=${BEYOND_BIGINT}`, {
            token: alice.token,
          });
          expect(res.status, `${path}?page=${page}`).toBe(200);
          const items = Array.isArray(res.json) ? res.json : res.json.data;
          expect(items, path).toEqual([]);
        }
      }
    });

    it("answers 404 for ids beyond the safe range in the path", async () => {
      for (const path of [
        `/repositories/${BEYOND_BIGINT}`,
        `/teams/${BEYOND_BIGINT}`,
        `/teams/${BEYOND_BIGINT}/members`,
        `/teams/${BEYOND_BIGINT}/repos`,
        "/repositories/99999999999999999999999999",
      ]) {
        expect((await t.call("GET", path, { token: alice.token })).status, path).toBe(404);
      }
    });

    it("answers 422 with the field's name for an integer query value out of range", async () => {
      for (const uid of [BEYOND_BIGINT, "-9223372036854775809", "12345678901234567890123"]) {
        const res = await t.call("GET", `/repos/search?uid=${uid}`, { token: alice.token });
        expect(res.status).toBe(422);
        expect(res.json.message).toMatch(/^\[Uid\]: /);
      }
      const fine = await t.call("GET", `/repos/search?uid=${alice.id}`, { token: alice.token });
      expect(fine.status).toBe(200);
    });
  });

  describe("NUL bytes", () => {
    it("answers 404 for a NUL byte in a path", async () => {
      for (const path of [
        `${repo.path}/branches/ma%00in`,
        `${repo.path}/tags/v%001`,
        `${repo.path}/contents/READ%00ME.md`,
        "/users/ali%00ce",
        "/repos/ali%00ce/hard",
        "/repos/alice/ha%00rd/branches",
        "/orgs/hard%00org",
        "/orgs/hard%00org/members",
      ]) {
        const res = await t.call("GET", path, { token: alice.token });
        expect(res.status, path).toBe(404);
      }
      const del = await t.call("DELETE", `${repo.path}/branches/ma%00in`, { token: alice.token });
      expect(del.status).toBe(404);
    });

    it("answers 401, not 500, for Basic credentials with a NUL byte", async () => {
      const basic = `Basic ${Buffer.from("ali\u0000ce:password1").toString("base64")}`;
      expect((await t.call("GET", "/user", { headers: { Authorization: basic } })).status).toBe(401);
      const git = await send("GET", "/alice/hard.git/info/refs?service=git-upload-pack", {
        headers: { Authorization: basic },
      });
      expect(git.status).toBe(401);
    });

    it("answers 422 for a NUL byte in a query value or key", async () => {
      for (const query of ["q=a%00b", "page=1%00", "a%00=1"]) {
        const res = await t.call("GET", `/repos/search?${query}`, { token: alice.token });
        expect(res.status, query).toBe(422);
        expect(res.json.message).toContain("NUL");
      }
    });

    it("answers 422 naming the field for a NUL byte in a JSON body string", async () => {
      const create = await t.call("POST", "/user/repos", { token: alice.token, body: { name: "a\u0000b" } });
      expect(create.status).toBe(422);
      expect(create.json.message).toBe("[Name]: must not contain NUL bytes");
      const branch = await t.call("POST", `${repo.path}/branches`, {
        token: alice.token,
        body: { new_branch_name: "nul\u0000branch" },
      });
      expect(branch.status).toBe(422);
      expect(branch.json.message).toBe("[NewBranchName]: must not contain NUL bytes");
      const nested = await t.call("POST", `${repo.path}/contents`, {
        token: alice.token,
        body: { files: [{ operation: "create", path: "ok.txt", content: "" }, { path: "x\u0000" }] },
      });
      expect(nested.status).toBe(422);
      expect(nested.json.message).toBe("[Files.1.Path]: must not contain NUL bytes");
    });

    it("answers 404 for git transport and LFS paths with a NUL byte", async () => {
      expect((await send("GET", "/ali%00ce/hard.git/info/refs?service=git-upload-pack")).status).toBe(404);
      const batch = await send("POST", "/alice/ha%00rd.git/info/lfs/objects/batch", {
        headers: { "Content-Type": "application/vnd.git-lfs+json" },
        body: JSON.stringify({ operation: "download", objects: [] }),
      });
      expect(batch.status).toBe(404);
    });
  });

  describe("branch names git refuses", () => {
    it("answers 422 for DELETE of a branch spelled with ./ or ../ segments (404 to GET), and deletes nothing", async () => {
      const made = await t.call("POST", `${repo.path}/branches`, {
        token: alice.token,
        body: { new_branch_name: "a/b" },
      });
      expect(made.status).toBe(201);
      for (const spelled of [
        ".%2Fmain",
        "a%2F.%2Fb",
        "a%2F..%2Fmain",
        "a%2F%2Fb",
        "a%2Fb.lock",
        "..%2F..%2Fconfig",
      ]) {
        const res = await t.call("DELETE", `${repo.path}/branches/${spelled}`, { token: alice.token });
        expect(res.status, spelled).toBe(422);
        expect((await t.call("GET", `${repo.path}/branches/${spelled}`, { token: alice.token })).status).toBe(
          404,
        );
      }
      expect((await t.call("GET", `${repo.path}/branches/a/b`, { token: alice.token })).status).toBe(200);
      expect((await t.call("GET", `${repo.path}/branches/main`, { token: alice.token })).status).toBe(200);
    });
  });
});
