import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  kiln,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");

/** A wiki clone URL (`/{owner}/{repo}.wiki.git`), with credentials when given. */
function wikiUrl(server: string, owner: string, repo: string, user?: readonly [string, string]): string {
  const u = new URL(`${server}/${owner}/${repo}.wiki.git`);
  if (user) {
    u.username = user[0];
    u.password = user[1];
  }
  return u.toString();
}

/**
 * A repository's wiki with the real git against `kiln web`: a page made through the API is
 * cloned, a page pushed with git shows through the API, a push creates a wiki that does not
 * exist yet, and a private repository's wiki stays invisible to outsiders and anonymous callers.
 */
describe.each(E2E_DATABASES)("repository wikis over git's smart HTTP (%s)", (name) => {
  const { env, dispose } = databaseEnv(name);
  const work = tempWorkPath();
  let server: ServerProcess;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let reader: Awaited<ReturnType<typeof createUser>>;
  let outsider: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    server = await startServer(work, env);
    owner = await createUser(server, work, "wikiowner", env);
    reader = await createUser(server, work, "wikireader", env);
    outsider = await createUser(server, work, "wikioutsider", env);
    for (const [repo, isPrivate] of [
      ["handbook", false],
      ["secrets", true],
      ["fresh", false],
    ] as const) {
      const made = await api(server.url, "POST", "/user/repos", {
        token: owner.token,
        body: { name: repo, auto_init: true, private: isPrivate },
      });
      expect(made.status).toBe(201);
    }
    const collaborator = await api(server.url, "PUT", "/repos/wikiowner/secrets/collaborators/wikireader", {
      token: owner.token,
      body: { permission: "read" },
    });
    expect(collaborator.status).toBe(204);
  });

  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("clones a page made through the API, and a page pushed with git shows through the API", async () => {
    const made = await api(server.url, "POST", "/repos/wikiowner/handbook/wiki/new", {
      token: owner.token,
      body: { title: "Home", content_base64: b64("# Handbook\n") },
    });
    expect(made.status).toBe(201);

    const dir = scratch("kiln-wiki-");
    // Public: anyone may clone the wiki.
    await gitOk(dir, ["clone", wikiUrl(server.url, "wikiowner", "handbook"), "w"]);
    expect(readFileSync(join(dir, "w", "Home.md"), "utf8")).toBe("# Handbook\n");
    const author = (await gitOk(join(dir, "w"), ["log", "-1", "--format=%an %s"])).trim();
    expect(author).toBe('wikiowner Add "Home"');

    // An anonymous push is refused; the owner's goes through.
    writeFileSync(join(dir, "w", "Release Notes.md"), "v1 shipped\n");
    await gitOk(join(dir, "w"), ["add", "."]);
    await gitOk(join(dir, "w"), ["commit", "-qm", "notes from git"]);
    const anonymous = await git(join(dir, "w"), ["push", "origin", "HEAD"]);
    expect(anonymous.code).not.toBe(0);
    await gitOk(join(dir, "w"), [
      "push",
      wikiUrl(server.url, "wikiowner", "handbook", [owner.username, owner.token]),
      "HEAD",
    ]);

    const page = await api(server.url, "GET", "/repos/wikiowner/handbook/wiki/page/Release-Notes");
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ title: "Release Notes", sub_url: "Release-Notes", commit_count: 1 });
    expect(Buffer.from(page.json.content_base64, "base64").toString()).toBe("v1 shipped\n");
    expect(page.json.last_commit.message).toBe("notes from git\n");
    const pages = await api(server.url, "GET", "/repos/wikiowner/handbook/wiki/pages");
    expect(pages.json.map((p: { title: string }) => p.title).sort()).toEqual(["Home", "Release Notes"]);

    // The push was measured: the ledger's wiki counter matches the recount.
    const doctor = await kiln(["doctor", "quota", "--work-path", work], env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
  });

  it("creates the wiki with a writer's first push; readers and strangers get 404 before", async () => {
    const dir = scratch("kiln-wiki-");
    const before = await git(dir, ["clone", wikiUrl(server.url, "wikiowner", "fresh"), "none"]);
    expect(before.code).not.toBe(0);
    expect(before.stderr).toMatch(/not found|404/i);

    await gitOk(dir, ["init", "-q", "-b", "main", "w"]);
    writeFileSync(join(dir, "w", "Home.md"), "pushed first\n");
    await gitOk(join(dir, "w"), ["add", "."]);
    await gitOk(join(dir, "w"), ["commit", "-qm", "first"]);
    // A stranger may not push (not a writer): refused, and no wiki is made.
    const stranger = await git(join(dir, "w"), [
      "push",
      wikiUrl(server.url, "wikiowner", "fresh", [outsider.username, outsider.token]),
      "main",
    ]);
    expect(stranger.code).not.toBe(0);
    expect(existsSync(join(work, "data", "repositories", "wikiowner", "fresh.wiki.git"))).toBe(false);
    await gitOk(join(dir, "w"), [
      "push",
      wikiUrl(server.url, "wikiowner", "fresh", [owner.username, owner.token]),
      "main",
    ]);
    const home = await api(server.url, "GET", "/repos/wikiowner/fresh/wiki/page/Home");
    expect(home.status).toBe(200);
    expect(Buffer.from(home.json.content_base64, "base64").toString()).toBe("pushed first\n");
  });

  it("keeps a private repository's wiki from outsiders and anonymous callers", async () => {
    const made = await api(server.url, "POST", "/repos/wikiowner/secrets/wiki/new", {
      token: owner.token,
      body: { title: "Keys", content_base64: b64("hush\n") },
    });
    expect(made.status).toBe(201);
    const dir = scratch("kiln-wiki-");
    const anonymous = await git(dir, ["clone", wikiUrl(server.url, "wikiowner", "secrets"), "a"]);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toMatch(/Authentication failed|could not read Username/);
    const stranger = await git(dir, [
      "clone",
      wikiUrl(server.url, "wikiowner", "secrets", [outsider.username, outsider.token]),
      "s",
    ]);
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toMatch(/not found|404/i);
    expect(existsSync(join(dir, "s", "Keys.md"))).toBe(false);

    // A read collaborator clones it, but may not push to it.
    await gitOk(dir, [
      "clone",
      wikiUrl(server.url, "wikiowner", "secrets", [reader.username, reader.token]),
      "r",
    ]);
    expect(readFileSync(join(dir, "r", "Keys.md"), "utf8")).toBe("hush\n");
    writeFileSync(join(dir, "r", "More.md"), "more\n");
    await gitOk(join(dir, "r"), ["add", "."]);
    await gitOk(join(dir, "r"), ["commit", "-qm", "more"]);
    const push = await git(join(dir, "r"), ["push", "origin", "HEAD"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403|denied/i);
  });
});
