import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { wikiRepoName } from "@kiln/git";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const text = (s: string) => Buffer.from(s, "base64").toString();
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The wiki API (Forgejo's routers/api/v1/repo/wiki.go): pages created, read, renamed and deleted
 * through the API as files of `<repo>.wiki.git`, Forgejo's names and answers, the wiki unit's
 * access rules, the `wiki` webhook event and the `size:wiki` usage in the quota ledger.
 */
describe.each(DIALECTS)("repository wiki on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let publicOnly: string;
  let readOnlyToken: string;

  const wikiUsage = async (ownerId: number) => {
    const row = await t.services.ctx.db
      .selectFrom("quotaUsage")
      .select("wiki")
      .where("ownerId", "=", ownerId)
      .executeTakeFirst();
    return Number(row?.wiki ?? 0);
  };

  beforeAll(async () => {
    t = await openTestApp(dialect, { server: { rootUrl: "http://kiln.test/" } });
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "docs");
    secret = await createRepo(t, owner, "vault", { private: true });
    for (const [who, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      for (const r of [repo, secret]) {
        await t.call("PUT", `${r.path}/collaborators/${who.name}`, {
          token: owner.token,
          body: { permission },
        });
      }
    }
    const ownerUser = await t.services.users.getByName(owner.name);
    publicOnly = (await t.services.tokens.create(ownerUser, "public", ["public-only", "read:repository"]))
      .secret;
    readOnlyToken = (await t.services.tokens.create(ownerUser, "ro", ["read:repository"])).secret;
  });
  afterAll(() => t?.close());

  it("answers 404 while the repository has no wiki, and creates it with the first page", async () => {
    expect((await t.call("GET", `${repo.path}/wiki/pages`)).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/wiki/page/Home`)).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/wiki/revisions/Home`)).status).toBe(404);
    const gitdir = join(t.settings.repository.root, owner.name.toLowerCase(), "docs.wiki.git");
    expect(await exists(gitdir)).toBe(false);

    const made = await t.call("POST", `${repo.path}/wiki/new`, {
      token: writer.token,
      body: { title: "Home", content_base64: b64("# Welcome\n") },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      title: "Home",
      sub_url: "Home",
      html_url: `http://kiln.test/${owner.name}/docs/wiki/Home`,
      commit_count: 1,
      sidebar: "",
      footer: "",
      last_commit: {
        message: 'Add "Home"\n',
        author: { name: writer.name },
        commiter: { name: writer.name },
      },
    });
    expect(text(made.json.content_base64)).toBe("# Welcome\n");
    expect(made.json.last_commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(made.json.last_commit.author.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await exists(join(gitdir, "HEAD"))).toBe(true);
  });

  it("names pages as Forgejo does and reads them back by their sub_url", async () => {
    const dated = await t.call("POST", `${repo.path}/wiki/new`, {
      token: owner.token,
      body: { title: "2000-01-02 meeting", content_base64: b64("notes"), message: "minutes" },
    });
    expect(dated.status).toBe(201);
    expect(dated.json).toMatchObject({ title: "2000-01-02 meeting", sub_url: "2000-01-02+meeting.-" });
    expect(dated.json.last_commit.message).toBe("minutes\n");
    const spaced = await t.call("POST", `${repo.path}/wiki/new`, {
      token: owner.token,
      body: { title: "Getting Started", content_base64: b64("go") },
    });
    expect(spaced.json.sub_url).toBe("Getting-Started");
    // The sub_url (raw, as Forgejo reads it) and its Forgejo-equivalent spellings name the page.
    for (const name of ["2000-01-02+meeting.-", "Getting-Started", "Getting+Started"]) {
      const got = await t.call("GET", `${repo.path}/wiki/page/${name}`);
      expect(got.status).toBe(200);
    }
    expect(
      text((await t.call("GET", `${repo.path}/wiki/page/2000-01-02+meeting.-`)).json.content_base64),
    ).toBe("notes");
    // The file in the wiki repository is Forgejo's: spaces kept, the dash marker.
    const files = await t.services.repositories.store.open(owner.name, wikiRepoName("docs"));
    const { getContents } = await import("@kiln/git");
    const root = await getContents(files, "");
    expect(root.kind === "dir" && root.entries.map((e) => e.name).sort()).toEqual(
      ["2000-01-02 meeting.-.md", "Getting-Started.md", "Home.md"].sort(),
    );
  });

  it("refuses what Forgejo refuses with 400: empty and reserved titles, existing pages, bad base64", async () => {
    const post = (body: unknown) => t.call("POST", `${repo.path}/wiki/new`, { token: owner.token, body });
    const empty = await post({ title: "  ", content_base64: b64("x") });
    expect(empty.status).toBe(400);
    const reserved = await post({ title: "_pages", content_base64: b64("x") });
    expect(reserved.status).toBe(400);
    expect(reserved.json.message).toBe("wiki title is reserved: _pages");
    const again = await post({ title: "Home", content_base64: b64("x") });
    expect(again.status).toBe(400);
    expect(again.json.message).toBe("wiki page already exists [title: Home.md]");
    const bad = await post({ title: "Fresh", content_base64: "not base64!" });
    expect(bad.status).toBe(400);
    expect((await post({ title: "t".repeat(256) })).status).toBe(422);
    expect((await t.call("GET", `${repo.path}/wiki/page/Fresh`)).status).toBe(404);
    // Names that unescape to paths outside the wiki's root find nothing (404, never 500).
    for (const name of [
      "..%252F..%252Fsecret.md",
      "..%2F..%2FHome",
      "%252E%252E%252FHome.md",
      "%zz",
      ".git.md",
    ]) {
      expect((await t.call("GET", `${repo.path}/wiki/page/${name}`)).status).toBe(404);
      expect((await t.call("GET", `${repo.path}/wiki/revisions/${name}`)).status).toBe(404);
      expect((await t.call("DELETE", `${repo.path}/wiki/page/${name}`, { token: owner.token })).status).toBe(
        404,
      );
    }
  });

  it("edits, renames and deletes pages, each a commit by the acting user", async () => {
    const edit = await t.call("PATCH", `${repo.path}/wiki/page/Home`, {
      token: writer.token,
      body: { content_base64: b64("# Welcome again\n") },
    });
    expect(edit.status).toBe(200);
    expect(edit.json).toMatchObject({ title: "Home", commit_count: 2 });
    expect(edit.json.last_commit.message).toBe('Update "Home"\n');
    expect(text(edit.json.content_base64)).toBe("# Welcome again\n");

    const renamed = await t.call("PATCH", `${repo.path}/wiki/page/Getting-Started`, {
      token: owner.token,
      body: { title: "First Steps", content_base64: b64("steps"), message: "rename" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ title: "First Steps", sub_url: "First-Steps" });
    expect((await t.call("GET", `${repo.path}/wiki/page/Getting-Started`)).status).toBe(404);

    const revisions = await t.call("GET", `${repo.path}/wiki/revisions/Home`);
    expect(revisions.status).toBe(200);
    expect(revisions.headers.get("x-total-count")).toBe("2");
    expect(revisions.json.count).toBe(2);
    expect(revisions.json.commits.map((c: { message: string }) => c.message)).toEqual([
      'Update "Home"\n',
      'Add "Home"\n',
    ]);
    expect(revisions.json.commits[0].author.name).toBe(writer.name);

    expect(
      (await t.call("DELETE", `${repo.path}/wiki/page/First-Steps`, { token: writer.token })).status,
    ).toBe(204);
    expect(
      (await t.call("DELETE", `${repo.path}/wiki/page/First-Steps`, { token: writer.token })).status,
    ).toBe(404);
    expect((await t.call("GET", `${repo.path}/wiki/revisions/First-Steps`)).status).toBe(404);
  });

  it("lists pages with their last commit, paged, and shows the sidebar and footer", async () => {
    for (const title of ["_Sidebar", "_Footer"]) {
      const made = await t.call("POST", `${repo.path}/wiki/new`, {
        token: owner.token,
        body: { title, content_base64: b64(`${title} text`) },
      });
      expect(made.status).toBe(201);
    }
    const all = await t.call("GET", `${repo.path}/wiki/pages`);
    expect(all.status).toBe(200);
    expect(all.headers.get("x-total-count")).toBe("4");
    const titles = all.json.map((p: { title: string }) => p.title);
    expect(titles.sort()).toEqual(["2000-01-02 meeting", "Home", "_Footer", "_Sidebar"].sort());
    for (const page of all.json) expect(page.last_commit.sha).toMatch(/^[0-9a-f]{40}$/);
    const second = await t.call("GET", `${repo.path}/wiki/pages?limit=3&page=2`);
    expect(second.json).toHaveLength(1);
    expect(second.headers.get("link")).toContain('rel="first"');
    const home = await t.call("GET", `${repo.path}/wiki/page/Home`);
    expect(text(home.json.sidebar)).toBe("_Sidebar text");
    expect(text(home.json.footer)).toBe("_Footer text");
  });

  it("keeps private wikis invisible and writes to writers of the wiki unit", async () => {
    const made = await t.call("POST", `${secret.path}/wiki/new`, {
      token: owner.token,
      body: { title: "Hidden", content_base64: b64("psst") },
    });
    expect(made.status).toBe(201);
    for (const path of ["/wiki/pages", "/wiki/page/Hidden", "/wiki/revisions/Hidden"]) {
      expect((await t.call("GET", `${secret.path}${path}`)).status).toBe(404);
      expect((await t.call("GET", `${secret.path}${path}`, { token: outsider.token })).status).toBe(404);
      expect((await t.call("GET", `${secret.path}${path}`, { token: publicOnly })).status).toBe(404);
      expect((await t.call("GET", `${secret.path}${path}`, { token: reader.token })).status).toBe(200);
    }
    const write = { body: { title: "Nope", content_base64: b64("x") } };
    expect(
      (await t.call("POST", `${secret.path}/wiki/new`, { ...write, token: outsider.token })).status,
    ).toBe(404);
    expect((await t.call("POST", `${secret.path}/wiki/new`, { ...write, token: reader.token })).status).toBe(
      403,
    );
    expect((await t.call("POST", `${repo.path}/wiki/new`, { ...write, token: outsider.token })).status).toBe(
      403,
    );
    expect((await t.call("POST", `${repo.path}/wiki/new`, write)).status).toBe(401);
    expect((await t.call("POST", `${repo.path}/wiki/new`, { ...write, token: readOnlyToken })).status).toBe(
      403,
    );
    expect((await t.call("DELETE", `${secret.path}/wiki/page/Hidden`, { token: reader.token })).status).toBe(
      403,
    );
    expect(
      (await t.call("PATCH", `${secret.path}/wiki/page/Hidden`, { ...write, token: outsider.token })).status,
    ).toBe(404);
    expect((await t.call("GET", `${secret.path}/wiki/page/Hidden`, { token: owner.token })).status).toBe(200);
  });

  it("sends a renamed repository's old wiki URL to its wiki, never to its code", async () => {
    const mine = await createRepo(t, owner, "handbook");
    const page = await t.call("POST", `${mine.path}/wiki/new`, {
      token: owner.token,
      body: { title: "Home", content_base64: Buffer.from("hello\n").toString("base64") },
    });
    expect(page.status).toBe(201);
    const renamed = await t.call("PATCH", mine.path, { token: owner.token, body: { name: "manual" } });
    expect(renamed.status).toBe(200);
    const res = await t.app.request(
      `http://kiln.test/${owner.name}/handbook.wiki.git/info/refs?service=git-upload-pack`,
      { headers: { Authorization: `token ${owner.token}` } },
    );
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(
      `/${owner.name}/manual.wiki.git/info/refs?service=git-upload-pack`,
    );
  });

  it("answers 423 for writes to an archived repository's wiki", async () => {
    const archived = await createRepo(t, owner, "attic");
    await t.call("POST", `${archived.path}/wiki/new`, {
      token: owner.token,
      body: { title: "Old", content_base64: b64("x") },
    });
    await t.call("PATCH", archived.path, { token: owner.token, body: { archived: true } });
    const res = await t.call("PATCH", `${archived.path}/wiki/page/Old`, {
      token: owner.token,
      body: { content_base64: b64("y") },
    });
    expect(res.status).toBe(423);
    expect((await t.call("DELETE", `${archived.path}/wiki/page/Old`, { token: owner.token })).status).toBe(
      423,
    );
    expect((await t.call("GET", `${archived.path}/wiki/page/Old`)).status).toBe(200);
  });

  it("queues a wiki webhook event with each write, in Forgejo's payload", async () => {
    const hookRepo = await createRepo(t, owner, "hooked");
    const hook = await t.call("POST", `${hookRepo.path}/hooks`, {
      token: owner.token,
      body: {
        type: "forgejo",
        config: { url: "http://127.0.0.1:9/hook", content_type: "json" },
        events: ["wiki"],
        active: true,
      },
    });
    expect(hook.status).toBe(201);
    await t.call("PUT", `${hookRepo.path}/collaborators/${writer.name}`, {
      token: owner.token,
      body: { permission: "write" },
    });
    await t.call("POST", `${hookRepo.path}/wiki/new`, {
      token: writer.token,
      body: { title: "Plan A", content_base64: b64("a"), message: "first plan" },
    });
    await t.call("PATCH", `${hookRepo.path}/wiki/page/Plan-A`, {
      token: writer.token,
      body: { content_base64: b64("b") },
    });
    await t.call("DELETE", `${hookRepo.path}/wiki/page/Plan-A`, { token: writer.token });
    const tasks = await t.services.ctx.db
      .selectFrom("hook_task")
      .selectAll()
      .where("hookId", "=", hook.json.id)
      .orderBy("id")
      .execute();
    expect(tasks.map((task) => task.eventType)).toEqual(["wiki", "wiki", "wiki"]);
    const payloads = tasks.map((task) => JSON.parse(task.payload));
    expect(payloads.map((p) => [p.action, p.page, p.comment])).toEqual([
      ["created", "Plan-A", "first plan"],
      ["edited", "Plan-A", 'Update "Plan-A"'],
      ["deleted", "Plan-A", ""],
    ]);
    expect(payloads[0]).toMatchObject({
      repository: { full_name: `${owner.name}/hooked` },
      sender: { login: writer.name },
    });
  });

  it("re-measures wikis with the update_wiki_size cron task", async () => {
    const admin = await t.user({ admin: true });
    const before = await wikiUsage(owner.id);
    // Bytes written behind Kiln's back (a restored backup, a repack): only a recount sees them.
    const gitdir = t.services.repositories.store.pathOf(owner.name, wikiRepoName("docs"));
    await writeFile(join(gitdir, "objects", "extra.bin"), Buffer.alloc(32 * 1024, 1));
    expect(await wikiUsage(owner.id)).toBe(before);
    expect((await t.call("POST", "/admin/cron/update_wiki_size", { token: admin.token })).status).toBe(204);
    expect(await wikiUsage(owner.id)).toBe(before + 32 * 1024);
    expect((await t.services.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
  });

  it("counts the wiki's size against the owner as size:wiki, moved and released with the repository", async () => {
    const mover = await t.user();
    const measured = async (ownerName: string, name: string) =>
      t.services.repositories.store.size(ownerName, wikiRepoName(name));
    const before = await wikiUsage(owner.id);
    const sized = await createRepo(t, owner, "sized");
    await t.call("POST", `${sized.path}/wiki/new`, {
      token: owner.token,
      body: { title: "Big", content_base64: b64("x".repeat(20_000)) },
    });
    const size = await measured(owner.name, "sized");
    expect(size).toBeGreaterThan(0);
    expect((await wikiUsage(owner.id)) - before).toBe(size);
    expect((await t.services.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
    // The seed rule: the wiki is always within quota, whatever the rules.
    expect((await t.call("GET", "/user/quota/check?subject=size:wiki", { token: owner.token })).json).toBe(
      true,
    );

    // kiln doctor quota recounts the wiki counter from repo_wiki: a drift is found and repaired.
    await t.services.ctx.db
      .updateTable("quotaUsage")
      .set({ wiki: 1 })
      .where("ownerId", "=", owner.id)
      .execute();
    const found = await t.services.quotaDoctor.run({ fix: true });
    expect(found.drifts).toEqual([
      expect.objectContaining({ ownerId: owner.id, counter: "wiki", subject: "size:wiki", ledger: 1 }),
    ]);
    expect((await wikiUsage(owner.id)) - before).toBe(size);

    // Renamed: the wiki follows on disk.
    await t.call("PATCH", sized.path, { token: owner.token, body: { name: "sized2" } });
    expect(await exists(join(t.settings.repository.root, owner.name.toLowerCase(), "sized.wiki.git"))).toBe(
      false,
    );
    expect((await t.call("GET", `/repos/${owner.name}/sized2/wiki/page/Big`)).status).toBe(200);

    // Transferred: the wiki and its usage go to the new owner.
    const moved = await t.call("POST", `/repos/${owner.name}/sized2/transfer`, {
      token: owner.token,
      body: { new_owner: mover.name },
    });
    expect(moved.status).toBe(201);
    const accepted = await t.call("POST", `/repos/${owner.name}/sized2/transfer/accept`, {
      token: mover.token,
    });
    expect(accepted.status).toBe(202);
    expect(await wikiUsage(owner.id)).toBe(before);
    expect(await wikiUsage(mover.id)).toBe(size);
    expect((await t.call("GET", `/repos/${mover.name}/sized2/wiki/page/Big`)).status).toBe(200);

    // Deleted: no directory left, no usage.
    expect((await t.call("DELETE", `/repos/${mover.name}/sized2`, { token: mover.token })).status).toBe(204);
    expect(await exists(join(t.settings.repository.root, mover.name.toLowerCase(), "sized2.wiki.git"))).toBe(
      false,
    );
    expect(await wikiUsage(mover.id)).toBe(0);
    expect((await t.services.quotaDoctor.run({ fix: false })).drifts).toEqual([]);
  });
});

/**
 * Forgejo checks `size:wiki` before wiki writes (EnforceQuotaAPI); Kiln's seed rule keeps the
 * wiki within quota, so with `[quota] ENFORCE` and an owner over every other limit, wiki writes
 * still go through while a repository write is refused.
 */
describe.each(DIALECTS)("wiki writes under [quota] ENFORCE on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect, { quota: { enforce: true, defaultTotal: 1 } });
    owner = await t.user();
  });
  afterAll(() => t?.close());

  it("lets an owner over quota write its wiki, and counts the bytes", async () => {
    const repo = await createRepo(t, owner, "over");
    expect(await t.services.quota.check(owner.id, "size:all")).toBe(false);
    const refused = await t.call("POST", `${repo.path}/branches`, {
      token: owner.token,
      body: { new_branch_name: "b1" },
    });
    expect(refused.status).toBe(413);
    const page = await t.call("POST", `${repo.path}/wiki/new`, {
      token: owner.token,
      body: { title: "Home", content_base64: b64("still writable") },
    });
    expect(page.status).toBe(201);
    const edit = await t.call("PATCH", `${repo.path}/wiki/page/Home`, {
      token: owner.token,
      body: { content_base64: b64("still writable, again") },
    });
    expect(edit.status).toBe(200);
    expect((await t.call("GET", "/user/quota/check?subject=size:wiki", { token: owner.token })).json).toBe(
      true,
    );
  });
});
