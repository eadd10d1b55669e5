import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { scratch } from "../../test/helpers.js";
import { startTestServer } from "../../test/test-server.js";
import type { GitRepository } from "../disk/git-repository.js";
import { GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { LfsStore } from "../lfs/lfs-store.js";
import { createBranch, deleteBranch, getBranch, setDefaultBranch } from "./branches.js";
import { isoContext } from "./iso.js";
import { listRefs } from "./refs.js";
import { readRef, resolveCommit } from "./resolve.js";
import { createTag, deleteTag, getTag } from "./tags.js";

/**
 * Alice's repository (the fixture) and Bob's, side by side in one store: every name Bob can
 * send must resolve inside Bob's repository or not at all.
 */
describe("refs resolve only inside the repository's own namespace", () => {
  let fx: FixtureRepo;
  let bob: GitRepository;
  let bobMain: string;
  /** From `bob.git/refs/heads/`, the path of alice's `refs/heads/main` file. */
  const traversal = "../../../../alice/fixture.git/refs/heads/main";

  beforeAll(async () => {
    fx = await fixtureRepo();
    bob = await fx.store.create("bob", "public");
    await fx.cli.ok(["push", "--quiet", bob.gitdir, `${fx.shas.one}:refs/heads/main`], fx.repo.gitdir);
    bobMain = fx.shas.one;
  });
  afterAll(() => fx.cleanup());

  it("never reads another repository's ref through dot-dot names", async () => {
    // The name really does lead to alice's ref file, and isomorphic-git alone would follow it.
    expect(existsSync(join(bob.gitdir, "refs/heads", traversal))).toBe(true);
    const leaked = await git.resolveRef({ ...isoContext(bob), ref: `refs/heads/${traversal}` });
    expect(leaked).toBe(fx.shas.three);

    const ctx = isoContext(bob);
    for (const name of [traversal, `refs/../${traversal}`, "..\\..\\..\\..\\alice\\fixture.git\\HEAD"]) {
      expect(await readRef(ctx, `refs/heads/${name}`), name).toBeUndefined();
      expect(await readRef(ctx, `refs/tags/${name}`), name).toBeUndefined();
      await expect(resolveCommit(ctx, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(getBranch(bob, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(getTag(bob, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(deleteBranch(bob, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(deleteTag(bob, name), name).rejects.toBeInstanceOf(GitNotFoundError);
    }
    await expect(resolveCommit(ctx, `refs/${traversal}`)).rejects.toBeInstanceOf(GitNotFoundError);
    expect(await listRefs(bob, `heads/${traversal}`)).toEqual([]);
    expect((await getBranch(fx.repo, "main")).commit.sha).toBe(fx.shas.three);
  });

  it("reads exactly the ref asked for, never isomorphic-git's other guesses", async () => {
    // A tag named `refs/heads/ghost` and a branch named `refs/tags/ghost`.
    await fx.cli.ok(["push", "--quiet", bob.gitdir, `${bobMain}:refs/tags/refs/heads/ghost`], fx.repo.gitdir);
    await fx.cli.ok(["push", "--quiet", bob.gitdir, `${bobMain}:refs/heads/refs/tags/ghost`], fx.repo.gitdir);
    const ctx = isoContext(bob);
    expect(await git.resolveRef({ ...ctx, ref: "refs/heads/ghost" })).toBe(bobMain);
    expect(await readRef(ctx, "refs/heads/ghost")).toBeUndefined();
    expect(await readRef(ctx, "refs/tags/ghost")).toBeUndefined();
    await expect(getBranch(bob, "ghost")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(getTag(bob, "ghost")).rejects.toBeInstanceOf(GitNotFoundError);
    expect(await readRef(ctx, "refs/tags/refs/heads/ghost")).toBe(bobMain);
    expect((await getBranch(bob, "refs/tags/ghost")).commit.sha).toBe(bobMain);
  });

  it("reads packed refs and follows symbolic refs only to names inside refs/", async () => {
    const ctx = isoContext(bob);
    await fx.cli.ok(["push", "--quiet", bob.gitdir, `${fx.shas.two}:refs/heads/packed`], fx.repo.gitdir);
    await fx.cli.ok(["pack-refs", "--all"], bob.gitdir);
    expect(existsSync(join(bob.gitdir, "refs/heads/packed"))).toBe(false);
    expect(await readRef(ctx, "refs/heads/packed")).toBe(fx.shas.two);
    expect((await getBranch(bob, "packed")).commit.sha).toBe(fx.shas.two);

    const link = join(bob.gitdir, "refs/heads/link");
    await mkdir(dirname(link), { recursive: true });
    await writeFile(link, "ref: refs/heads/packed\n");
    expect(await readRef(ctx, "refs/heads/link")).toBe(fx.shas.two);
    await writeFile(link, `ref: refs/heads/${traversal}\n`);
    expect(await readRef(ctx, "refs/heads/link")).toBeUndefined();
    await writeFile(link, "ref: refs/heads/link\n");
    expect(await readRef(ctx, "refs/heads/link")).toBeUndefined();
    expect(await readRef(ctx, "HEAD")).toBe(bobMain);
  });

  it("creates no branch or tag git refuses, by the API or by a push, but reads and deletes ones that exist", async () => {
    for (const name of ["HEAD", "-x", "@", "a..b", "a.lock", "a//b", "x@{y}", traversal]) {
      await expect(createBranch(bob, { name, from: "main" }), name).rejects.toBeInstanceOf(
        GitInvalidArgumentError,
      );
      await expect(createTag(bob, { name, target: "main" }), name).rejects.toBeInstanceOf(
        GitInvalidArgumentError,
      );
    }
    expect(
      await fx.cli.ok(
        ["for-each-ref", "--format=%(refname)", "refs/heads/HEAD", "refs/tags/HEAD"],
        bob.gitdir,
      ),
    ).toBe("");
    // A push through Kiln (which always judges a push against a policy) creates none of them
    // either: plain git's receive-pack would take `refs/heads/HEAD`, the policy refuses it.
    const lfs = await scratch();
    const server = await startTestServer(fx.store, new LfsStore(lfs.dir));
    server.hooks.pushPolicy = { branchRules: [] };
    const bobUrl = `${server.url}/bob/public.git`;
    try {
      for (const ref of ["refs/heads/HEAD", "refs/heads/-x", "refs/heads/@", "refs/tags/HEAD"]) {
        const pushed = await fx.cli.run(["push", bobUrl, `${bobMain}:${ref}`], fx.repo.gitdir);
        expect(pushed.code, ref).not.toBe(0);
        expect(pushed.stderr, ref).toContain("git refuses this");
      }
      expect(
        await fx.cli.ok(["for-each-ref", "--format=%(refname)", "refs/heads/", "refs/tags/HEAD"], bob.gitdir),
      ).not.toMatch(/refs\/heads\/(HEAD|-x|@)$|refs\/tags\/HEAD/m);
      // One left from before the rule (or written by other tools) is a branch like any other to
      // read and delete, by the API and by a push.
      await fx.cli.ok(["update-ref", "refs/heads/HEAD", bobMain], bob.gitdir);
      expect((await getBranch(bob, "HEAD")).commit.sha).toBe(bobMain);
      expect(await deleteBranch(bob, "HEAD")).toBe(bobMain);
      expect(await readRef(isoContext(bob), "refs/heads/HEAD")).toBeUndefined();
      await fx.cli.ok(["update-ref", "refs/tags/HEAD", bobMain], bob.gitdir);
      await fx.cli.ok(["push", "--quiet", bobUrl, ":refs/tags/HEAD"], fx.repo.gitdir);
    } finally {
      await server.close();
      await lfs.cleanup();
    }
    expect(await readRef(isoContext(bob), "refs/tags/HEAD")).toBeUndefined();
  });

  it("sets the default branch only to an existing branch or, in an empty repository, a name git allows", async () => {
    const empty = await fx.store.create("bob", "empty");
    for (const name of ["HEAD", "-x", "@", "a..b", traversal]) {
      await expect(setDefaultBranch(empty, name), name).rejects.toBeInstanceOf(GitInvalidArgumentError);
      await expect(setDefaultBranch(bob, name), name).rejects.toBeInstanceOf(GitInvalidArgumentError);
    }
    expect(await fx.cli.ok(["symbolic-ref", "HEAD"], empty.gitdir)).toBe("refs/heads/main");
    await setDefaultBranch(empty, "trunk");
    expect(await fx.cli.ok(["symbolic-ref", "HEAD"], empty.gitdir)).toBe("refs/heads/trunk");
    await expect(setDefaultBranch(bob, "nope")).rejects.toBeInstanceOf(GitNotFoundError);
    expect(await fx.cli.ok(["symbolic-ref", "HEAD"], bob.gitdir)).toBe("refs/heads/main");
  });
});
