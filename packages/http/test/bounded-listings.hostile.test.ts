import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  commitManyFiles,
  git,
  gitOk,
  pushUrl,
  RESPONSIVE_MS,
  whileAttacking,
  workRepo,
} from "./bounded-work.js";
import { createRepo } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

/**
 * What a hostile push can put in a repository, and the listings that used to read all of it
 * (issue: bounded work, cases 6–8): a directory of thousands of files, thousands of branches,
 * a wiki of thousands of pages. Listings answer a bounded page while an unrelated request answers,
 * and pushes past `[repository] MAX_REFS` / `MAX_FILES` are refused naming the key. Sizes are
 * scaled down from the reproduction (200,000 files, 20,000 branches) so CI stays fast; the limits
 * are lowered to match.
 */
// Each case pushes hundreds of refs or thousands of files through the server: on a loaded 2-core
// CI machine that outlasts the default 60 s. The limit only stops a hung run; it measures nothing.
vi.setConfig({ testTimeout: 240_000 });

describe.each(DIALECTS)("bounded listings and pushes on %s", (dialect) => {
  let t: TestApp;
  let url: string;
  let owner: TestUser;
  let other: TestUser;
  let work: Awaited<ReturnType<typeof workRepo>>;

  beforeAll(async () => {
    t = await openTestApp(
      dialect,
      { api: { maxDirectoryEntries: 100 }, repository: { maxRefs: 600, maxFiles: 8_000 } },
      { listen: true },
    );
    url = t.url as string;
    owner = await t.user({ name: "pusher" });
    other = await t.user({ name: "bystander" });
    await createRepo(t, other, "calm");
    work = await workRepo();
  });
  afterAll(async () => {
    await work?.cleanup();
    await t?.close();
  });

  const as = (user: TestUser | null, method: string, path: string) =>
    t.call(method, path, user ? { token: user.token } : {});

  it("6. lists a directory of thousands of files up to [api] MAX_DIRECTORY_ENTRIES, and reads one of them", async () => {
    const repo = await createRepo(t, owner, "wide");
    const sha = await commitManyFiles(work.dir, 5_000, "f", { "z-readme": "hello" });
    await gitOk(work.dir, ["push", "-q", pushUrl(url, owner.name, "wide", owner), `${sha}:refs/heads/wide`]);
    const { result, slowest } = await whileAttacking(url, () =>
      Promise.all([1, 2, 3, 4].map(() => as(null, "GET", `${repo.path}/contents?ref=wide`))),
    );
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    for (const listing of result) {
      expect(listing.status).toBe(200);
      expect(listing.json).toHaveLength(100);
    }
    const file = await as(null, "GET", `${repo.path}/contents/z-readme?ref=wide`);
    expect(Buffer.from(file.json.content, "base64").toString()).toBe("hello");
    const tree = await as(null, "GET", `${repo.path}/git/trees/wide?per_page=10&page=3`);
    expect(tree.json).toMatchObject({ total_count: 5_001, truncated: true, page: 3 });
    expect(tree.json.tree).toHaveLength(10);
  });

  it("7. lists a repository of hundreds of branches one page at a time; a push past [repository] MAX_REFS is refused", async () => {
    const repo = await createRepo(t, owner, "branchy");
    const base = await gitOk(work.dir, ["commit-tree", await gitOk(work.dir, ["mktree"], ""), "-m", "base"]);
    const refs = Array.from({ length: 400 }, (_, i) => `create refs/heads/b${i} ${base}`).join("\n");
    await gitOk(work.dir, ["update-ref", "--stdin"], `${refs}\n`);
    const target = pushUrl(url, owner.name, "branchy", owner);
    await gitOk(work.dir, ["push", "-q", target, "refs/heads/b*:refs/heads/b*"]);
    const { result, slowest } = await whileAttacking(url, () =>
      Promise.all([
        ...[1, 2, 3].map(() => as(null, "GET", `${repo.path}/branches?limit=30`)),
        as(null, "GET", `/repos/${other.name}/calm/branches`),
      ]),
    );
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    for (const page of result.slice(0, 3)) {
      expect(page.json).toHaveLength(30);
      expect(page.headers.get("x-total-count")).toBe("401");
    }
    expect(result[3]?.json).toHaveLength(1);

    // 401 refs now: 200 more would leave 601, past MAX_REFS = 600.
    const more = Array.from({ length: 200 }, (_, i) => `create refs/heads/c${i} ${base}`).join("\n");
    await gitOk(work.dir, ["update-ref", "--stdin"], `${more}\n`);
    const refused = await git(work.dir, ["push", target, "refs/heads/c*:refs/heads/c*"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("would hold 601 refs, more than [repository] MAX_REFS (600)");
    expect((await as(null, "GET", `${repo.path}/branches?limit=1`)).headers.get("x-total-count")).toBe("401");
  });

  it("8. lists a wiki of thousands of pages one page at a time; a push past [repository] MAX_FILES is refused", async () => {
    const repo = await createRepo(t, owner, "documented");
    const wiki = pushUrl(url, owner.name, "documented.wiki", owner);
    const pages = await commitManyFiles(work.dir, 5_000, "page-", { "Home.md": "# Home" });
    // Pages need their .md: rename through a second tree holding the same blobs.
    const listing = await gitOk(work.dir, ["ls-tree", pages]);
    const renamed = listing
      .split("\n")
      .map((line) => (line.endsWith(".md") ? line : `${line}.md`))
      .join("\n");
    const tree = await gitOk(work.dir, ["mktree"], `${renamed}\n`);
    const commit = await gitOk(work.dir, ["commit-tree", tree, "-m", "many pages"]);
    await gitOk(work.dir, ["push", "-q", wiki, `${commit}:refs/heads/main`]);
    const { result, slowest } = await whileAttacking(url, () =>
      Promise.all([1, 2, 3].map(() => as(null, "GET", `${repo.path}/wiki/pages?limit=1&page=2`))),
    );
    expect(slowest).toBeLessThan(RESPONSIVE_MS);
    for (const page of result) {
      expect(page.status).toBe(200);
      expect(page.json).toHaveLength(1);
      expect(page.headers.get("x-total-count")).toBe("5001");
    }

    const tooMany = await commitManyFiles(work.dir, 8_001, "page-");
    const refused = await git(work.dir, ["push", wiki, `${tooMany}:refs/heads/more`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("refs/heads/more holds more than [repository] MAX_FILES (8000) files");
  });
});

/**
 * Wiki pushes count against the owner's quota as repository pushes do: with `[quota] ENFORCE`, an
 * owner over quota (`size:repos:all`, what Forgejo's pre-receive checks) cannot push to a wiki.
 */
describe.each(DIALECTS)("wiki pushes under [quota] ENFORCE on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let work: Awaited<ReturnType<typeof workRepo>>;

  beforeAll(async () => {
    t = await openTestApp(dialect, { quota: { enforce: true, defaultTotal: 1 } }, { listen: true });
    owner = await t.user({ name: "overquota" });
    work = await workRepo();
  });
  afterAll(async () => {
    await work?.cleanup();
    await t?.close();
  });

  it("refuses a push to the wiki of an owner over quota", async () => {
    await createRepo(t, owner, "full");
    expect(await t.services.quota.check(owner.id, "size:repos:all")).toBe(false);
    const commit = await commitManyFiles(work.dir, 3, "page-");
    const refused = await git(work.dir, [
      "push",
      pushUrl(t.url as string, owner.name, "full.wiki", owner),
      `${commit}:refs/heads/main`,
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Quota exceeded");
    expect((await t.call("GET", `/repos/${owner.name}/full/wiki/pages`)).status).toBe(404);
  });
});
