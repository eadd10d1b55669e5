import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { refPage } from "./ref-pages.js";

describe("pages of ref names", () => {
  let fx: FixtureRepo;
  const git = (...args: string[]) => fx.cli.ok(["--git-dir", fx.repo.gitdir, ...args]);
  const gitNames = async (prefix: string) =>
    (await git("for-each-ref", "--format=%(refname)", "--sort=refname", prefix)).split("\n").filter(Boolean);

  beforeAll(async () => {
    fx = await fixtureRepo();
    for (const name of ["zeta", "Alpha", "a/b", "a-b", "ä", "x/y/z"]) await git("branch", name, fx.shas.one);
    await git("pack-refs", "--all");
    await git("branch", "loose-after-pack", fx.shas.two);
  });
  afterAll(() => fx.cleanup());

  it("sorted by name, lists what git lists, loose and packed, and sees a change made by git itself", async () => {
    const all = await refPage(fx.repo, { prefix: "refs/heads/", sort: ["refname"], start: 0, count: 100 });
    expect(all.names).toEqual(await gitNames("refs/heads/"));
    expect(all.total).toBe(all.names.length);
    const page = await refPage(fx.repo, { prefix: "refs/heads/", sort: ["refname"], start: 2, count: 3 });
    expect(page.names).toEqual(all.names.slice(2, 5));
    // A branch made and one deleted by another git process, with no word to Kiln.
    await git("branch", "made-outside", fx.shas.one);
    await git("branch", "-D", "zeta");
    const after = await refPage(fx.repo, { prefix: "refs/heads/", sort: ["refname"], start: 0, count: 100 });
    expect(after.names).toEqual(await gitNames("refs/heads/"));
    expect(after.names).toContain("refs/heads/made-outside");
    expect(after.names).not.toContain("refs/heads/zeta");
    const tags = await refPage(fx.repo, { prefix: "refs/tags/", sort: ["refname"], start: 0, count: 100 });
    expect(tags.names).toEqual(await gitNames("refs/tags/"));
  });
});
