import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageOf } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("repository migrations over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect, { repository: { maxCreationLimit: 20 } });
    alice = await t.user({ name: "alice" });
    admin = await t.user({ name: "root", admin: true });
  });
  afterAll(() => t?.close());

  const usage = (name: string) => usageOf(t, name);

  it("refuses a mirror while mirrors are disabled, creating nothing", async () => {
    const noMirrors = await openTestApp(dialect, { repository: { disableMirrors: true } });
    try {
      const u = await noMirrors.user({ admin: true });
      const res = await noMirrors.call("POST", "/repos/migrate", {
        token: u.token,
        body: { clone_addr: "https://example.invalid/x.git", repo_name: "mirrored", mirror: true },
      });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe("the site administrator has disabled the creation of new pull mirrors");
      expect((await noMirrors.call("GET", `/repos/${u.name}/mirrored`, { token: u.token })).status).toBe(404);
      expect(existsSync(join(noMirrors.settings.repository.root, u.name.toLowerCase(), "mirrored.git"))).toBe(
        false,
      );
    } finally {
      await noMirrors.close();
    }
  });

  it("migrates a local repository for an admin, and refuses local network hosts by default", async () => {
    const source = mkdtempSync(join(tmpdir(), "kiln-migrate-src-"));
    execFileSync("git", ["init", "-q", "-b", "main", source]);
    execFileSync("git", [
      "-C",
      source,
      "-c",
      "user.name=x",
      "-c",
      "user.email=x@e.org",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "from elsewhere",
    ]);
    const migrated = await t.call("POST", "/repos/migrate", {
      token: admin.token,
      body: { clone_addr: source, repo_name: "imported", private: true },
    });
    expect(migrated.status).toBe(201);
    expect(migrated.json).toMatchObject({
      full_name: "root/imported",
      private: true,
      empty: false,
      default_branch: "main",
    });
    expect((await usage("root")).reposPrivate).toBeGreaterThan(0);
    const notAllowed = await t.call("POST", "/repos/migrate", {
      token: alice.token,
      body: { clone_addr: source, repo_name: "nope" },
    });
    expect(notAllowed.status).toBe(403);
    const local = await t.call("POST", "/repos/migrate", {
      token: alice.token,
      body: { clone_addr: "http://127.0.0.1:1/x.git", repo_name: "nope" },
    });
    expect(local.status).toBe(422);
    expect(local.json.message).toBe("You can not import from disallowed hosts.");
    expect((await t.call("GET", "/repos/alice/nope", { token: alice.token })).status).toBe(404);
  });
});
