import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import git from "isomorphic-git";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { getBranch, listBranches } from "./branches.js";
import { batchReadObjects, objectHeaders } from "./cat-file.js";
import { getContents } from "./contents.js";
import { isoContext } from "./iso.js";
import {
  type ObjectEngine,
  objectEngine,
  objectInfo,
  readBlobCached,
  readCommitCached,
  readTagCached,
  readTreeCached,
  setObjectEngine,
} from "./object-cache.js";
import { parseCommit, parseTag, parseTree } from "./parse-objects.js";

/** Every object id of the repository, by type, as git lists them. */
async function allObjects(fx: FixtureRepo): Promise<Map<string, string>> {
  const listed = await fx.cli.ok(
    ["cat-file", "--batch-check=%(objectname) %(objecttype)", "--batch-all-objects"],
    fx.repo.gitdir,
  );
  return new Map(listed.split("\n").map((line) => line.split(" ") as [string, string]));
}

describe("the object layer", () => {
  let fx: FixtureRepo;
  const initialEngine = objectEngine();

  beforeAll(async () => {
    fx = await fixtureRepo();
    // A signed-looking commit (a gpgsig header with continuation lines) and a merge.
    const work = join(fx.repo.gitdir, "..", "..", "..", "work");
    const tree = await fx.cli.ok(["rev-parse", "HEAD^{tree}"], work);
    const raw = [
      `tree ${tree}`,
      `parent ${fx.shas.three}`,
      `parent ${fx.shas.two}`,
      "author A U Thor <a@example.com> 1700000000 +0130",
      "committer C O Mitter <c@example.com> 1700000100 -0800",
      "gpgsig -----BEGIN PGP SIGNATURE-----",
      " ",
      " iQEzBAABCAAdFiEE",
      " -----END PGP SIGNATURE-----",
      "",
      "Merge with a signature",
      "",
    ].join("\n");
    await writeFile(join(work, "raw-commit"), raw);
    const merge = await fx.cli.ok(["hash-object", "-t", "commit", "-w", "raw-commit"], work);
    await fx.cli.ok(["tag", "-a", "signed-ish", "-m", "Tag message\n\nbody", merge], work);
    await fx.cli.ok(["push", "--quiet", fx.repo.gitdir, `${merge}:refs/heads/merged`, "signed-ish"], work);
  });
  afterAll(() => fx.cleanup());
  afterEach(() => setObjectEngine(initialEngine));

  it("parses every commit, tree and tag exactly as isomorphic-git does", async () => {
    const ctx = isoContext(fx.repo);
    const objects = await allObjects(fx);
    const [raws] = [await batchReadObjects(fx.repo, [...objects.keys()])];
    let index = 0;
    for (const [oid, type] of objects) {
      const raw = raws[index++];
      expect(raw?.type, oid).toBe(type);
      if (!raw) continue;
      if (type === "commit") {
        const theirs = await git.readCommit({ ...ctx, oid });
        expect(parseCommit(oid, raw.data), oid).toEqual({ oid, commit: theirs.commit });
      } else if (type === "tree") {
        const theirs = await git.readTree({ ...ctx, oid });
        expect(parseTree(oid, raw.data), oid).toEqual({ oid, tree: theirs.tree });
      } else if (type === "tag") {
        const theirs = await git.readTag({ ...ctx, oid });
        expect(parseTag(oid, raw.data), oid).toEqual({ oid, tag: theirs.tag });
      }
    }
    expect([...objects.values()]).toEqual(expect.arrayContaining(["commit", "tree", "blob", "tag"]));
  });

  it.each<ObjectEngine>(["isomorphic-git", "cat-file"])(
    "reads the same objects with the %s engine, and answers missing ones as not found",
    async (engine) => {
      setObjectEngine(engine);
      const ctx = isoContext(fx.repo);
      const head = await readCommitCached(ctx, fx.shas.three);
      expect(head.commit.message).toBe("Third commit\n");
      const root = await readTreeCached(ctx, head.commit.tree);
      const readme = root.tree.find((entry) => entry.path === "README.md");
      expect(Buffer.from(await readBlobCached(ctx, readme?.oid ?? "")).toString()).toBe("# fixture\n");
      expect(await objectInfo(ctx, readme?.oid ?? "")).toEqual({ type: "blob", size: 10 });
      const missing = "0123456789012345678901234567890123456789";
      await expect(readCommitCached(ctx, missing)).rejects.toMatchObject({ code: "NotFoundError" });
      await expect(readTreeCached(ctx, fx.shas.one)).rejects.toMatchObject({ code: "ObjectTypeError" });
      expect(await objectInfo(ctx, missing)).toBeUndefined();
      const tagOid = await fx.cli.ok(["rev-parse", "v2"], fx.repo.gitdir);
      expect((await readTagCached(ctx, tagOid)).tag).toMatchObject({ tag: "v2", object: fx.shas.three });
    },
  );

  it("keeps answers in order when many reads of one repository are in flight", async () => {
    const objects = [...(await allObjects(fx)).keys()];
    const missing = "0123456789012345678901234567890123456789";
    const asked = [...objects, missing, ...objects.slice().reverse()];
    const [each, checks] = await Promise.all([
      Promise.all(asked.map((oid) => batchReadObjects(fx.repo, [oid]).then(([raw]) => raw))),
      objectHeaders(fx.repo, asked),
    ]);
    each.forEach((raw, index) => {
      expect(raw?.data.length).toBe(checks[index]?.size);
      expect(raw?.type).toBe(checks[index]?.type);
    });
    expect(each[objects.length]).toBeUndefined();
  });

  it("never answers an object of a repository for a new repository made at the same path", async () => {
    const ctx = isoContext(fx.repo);
    const blob = await fx.cli.ok(["rev-parse", `${fx.shas.one}:README.md`], fx.repo.gitdir);
    expect(await readBlobCached(ctx, blob)).toBeDefined();
    const gone = await fx.store.create("carol", "gone");
    const goneCtx = isoContext(gone);
    await fx.cli.ok(["push", "--quiet", gone.gitdir, `${fx.shas.one}:refs/heads/main`], fx.repo.gitdir);
    expect(Buffer.from(await readBlobCached(goneCtx, blob)).toString()).toBe("# fixture\n");
    expect((await getBranch(gone, "main")).commit.sha).toBe(fx.shas.one);
    await fx.store.delete("carol", "gone");
    const again = await fx.store.create("carol", "gone");
    await expect(readBlobCached(isoContext(again), blob)).rejects.toMatchObject({ code: "NotFoundError" });
    expect(await objectInfo(isoContext(again), blob)).toBeUndefined();
    expect(await listBranches(again)).toEqual([]);
  });

  it("sees refs changed by git behind Kiln's back at the next read", async () => {
    const repo = await fx.store.create("dave", "behind");
    await fx.cli.ok(["push", "--quiet", repo.gitdir, `${fx.shas.one}:refs/heads/main`], fx.repo.gitdir);
    // Let the first snapshot be kept (it is not while a change is younger than git's "racy" window).
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await getBranch(repo, "main")).commit.sha).toBe(fx.shas.one);
    expect((await getContents(repo, "README.md")).commitSha).toBe(fx.shas.one);
    await fx.cli.ok(
      ["push", "--quiet", "--force", repo.gitdir, `${fx.shas.three}:refs/heads/main`],
      fx.repo.gitdir,
    );
    expect((await getBranch(repo, "main")).commit.sha).toBe(fx.shas.three);
    await fx.cli.ok(
      ["push", "--quiet", repo.gitdir, `${fx.shas.two}:refs/heads/nested/topic`],
      fx.repo.gitdir,
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await listBranches(repo)).map((branch) => branch.name)).toEqual(["main", "nested/topic"]);
    await fx.cli.ok(["update-ref", "refs/heads/nested/topic", fx.shas.one], repo.gitdir);
    expect((await getBranch(repo, "nested/topic")).commit.sha).toBe(fx.shas.one);
    await fx.cli.ok(["pack-refs", "--all"], repo.gitdir);
    await fx.cli.ok(["update-ref", "-d", "refs/heads/nested/topic"], repo.gitdir);
    expect((await listBranches(repo)).map((branch) => branch.name)).toEqual(["main"]);
  });
});
