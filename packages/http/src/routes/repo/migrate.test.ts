import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageOf } from "../../../test/repos.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

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

  it("refuses to create in a namespace the caller may not create in, creating nothing (403; hidden = absent, 422)", async () => {
    const bob = await t.user();
    const source = mkdtempSync(join(tmpdir(), "kiln-migrate-ns-"));
    execFileSync("git", ["init", "-q", "-b", "main", source]);
    // The source is local, so only the namespace decides: the caller is allowed local imports.
    await t.services.users.adminEdit(await t.services.users.getByName(bob.name), { allowImportLocal: true });
    const org = await t.call("POST", "/orgs", { token: admin.token, body: { username: "ns-public-org" } });
    expect(org.status).toBe(201);
    const hidden = await t.call("POST", "/orgs", {
      token: admin.token,
      body: { username: "ns-private-org", visibility: "private" },
    });
    expect(hidden.status).toBe(201);
    const attempts = [
      { owner: alice.name, body: { repo_owner: alice.name }, status: 403 },
      { owner: alice.name, body: { uid: alice.id }, status: 403 },
      { owner: "ns-public-org", body: { repo_owner: "ns-public-org" }, status: 403 },
      { owner: "ns-private-org", body: { repo_owner: "ns-private-org" }, status: 422 },
      { owner: "ns-private-org", body: { uid: hidden.json.id }, status: 422 },
    ];
    for (const { owner, body, status } of attempts) {
      const res = await t.call("POST", "/repos/migrate", {
        token: bob.token,
        body: { clone_addr: source, repo_name: "taken-over", ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(existsSync(join(t.settings.repository.root, owner.toLowerCase(), "taken-over.git"))).toBe(false);
      expect((await t.call("GET", `/repos/${owner}/taken-over`, { token: admin.token })).status).toBe(404);
    }
    // A private organization answers exactly like one that does not exist.
    const absent = await t.call("POST", "/repos/migrate", {
      token: bob.token,
      body: { clone_addr: source, repo_name: "taken-over", repo_owner: "ns-no-such-org" },
    });
    expect(absent.status).toBe(422);
    expect(absent.json.message).toBe("user does not exist [name: ns-no-such-org]");
    rmSync(source, { recursive: true, force: true });
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

  it.each([
    ["http://1.2.3.4\\@127.0.0.1:3000/o/r.git", "Invalid URL: backslashes are not allowed."],
    ["http://a@b@127.0.0.1:3000/o/r.git", "Invalid URL: more than one '@' before the host is ambiguous."],
    [
      "http://exa mple.com/r.git",
      "Invalid URL: whitespace, control and non-ASCII characters are not allowed.",
    ],
    ["git://example.com/r.git", "Invalid URL: only http:// and https:// URLs can be migrated."],
    ["http://2130706433:3000/o/r.git", "You can not import from disallowed hosts."],
    ["http://0x7f000001:3000/o/r.git", "You can not import from disallowed hosts."],
    ["http://127.1:3000/o/r.git", "You can not import from disallowed hosts."],
    ["http://[::1]:3000/o/r.git", "You can not import from disallowed hosts."],
    ["http://[::ffff:127.0.0.1]:3000/o/r.git", "You can not import from disallowed hosts."],
    ["http://localhost.:3000/o/r.git", "You can not import from disallowed hosts."],
    ["http://169.254.169.254/latest", "You can not import from disallowed hosts."],
  ])("refuses %s with 422, creating nothing", async (cloneAddr, message) => {
    const res = await t.call("POST", "/repos/migrate", {
      token: alice.token,
      body: { clone_addr: cloneAddr, repo_name: "refused" },
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(message);
    expect((await t.call("GET", "/repos/alice/refused", { token: alice.token })).status).toBe(404);
    expect(existsSync(join(t.settings.repository.root, "alice", "refused.git"))).toBe(false);
  });

  it("with local networks allowed, answers a closed port and a web page alike, and migrates a real repository", async () => {
    const open = await openTestApp(dialect, { migrations: { allowLocalNetworks: true } });
    const served = await listen(open.app);
    const web = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>"),
    );
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const u = await open.user({ name: "mover" });
      const migrate = (clone_addr: string, repo_name: string) =>
        open.call("POST", "/repos/migrate", { token: u.token, body: { clone_addr, repo_name } });
      const answers = [
        await migrate(`http://127.0.0.1:${closedPort}/o/r.git`, "from-closed"),
        await migrate(`http://127.0.0.1:${(web.address() as AddressInfo).port}/o/r.git`, "from-web"),
        await migrate(`${served.url}/mover/missing.git`, "from-missing"),
      ];
      for (const answer of answers) {
        expect([answer.status, answer.json.message]).toEqual([
          422,
          "Migration failed: the remote repository could not be read.",
        ]);
      }
      for (const name of ["from-closed", "from-web", "from-missing"]) {
        expect((await open.call("GET", `/repos/mover/${name}`, { token: u.token })).status).toBe(404);
        expect(existsSync(join(open.settings.repository.root, "mover", `${name}.git`))).toBe(false);
      }
      const source = await open.call("POST", "/user/repos", {
        token: u.token,
        body: { name: "src", auto_init: true },
      });
      expect(source.status).toBe(201);
      const copy = await migrate(`${served.url}/mover/src.git`, "copy");
      expect(copy.status, JSON.stringify(copy.json)).toBe(201);
      expect(copy.json).toMatchObject({ full_name: "mover/copy", empty: false });
    } finally {
      await new Promise<void>((resolve) => web.close(() => resolve()));
      await served.close();
      await open.close();
    }
  });
});
