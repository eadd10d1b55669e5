import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import { gitRefUpdateFacts } from "./git-facts.js";
import { ZERO_SHA } from "./push-policy.js";

describe("gitRefUpdateFacts", () => {
  let root: Awaited<ReturnType<typeof scratch>>;
  let cli: GitCli;
  let work: string;
  const shas: Record<string, string> = {};

  async function commit(name: string, files: Record<string, string>) {
    for (const [path, content] of Object.entries(files)) await writeFile(join(work, path), content);
    await cli.ok(["add", "-A"], work);
    await cli.ok(["commit", "--quiet", "-m", name], work);
    shas[name] = await cli.ok(["rev-parse", "HEAD"], work);
  }

  beforeAll(async () => {
    root = await scratch();
    cli = await new GitCli(root.dir).setup();
    work = join(root.dir, "work");
    await cli.ok(["init", "--quiet", work]);
    await commit("one", { "a.txt": "1", "b.txt": "1" });
    await commit("two", { "a.txt": "2" });
    await cli.ok(["branch", "keep"], work);
    await cli.ok(["reset", "--quiet", "--hard", shas.one!], work);
    await commit("three", { "c.txt": "3" });
  });

  afterAll(() => root.cleanup());

  it("tells fast-forwards from history rewrites", async () => {
    const facts = gitRefUpdateFacts(work);
    const ref = "refs/heads/x";
    expect(await facts.isForcePush({ oldSha: shas.one!, newSha: shas.two!, ref })).toBe(false);
    expect(await facts.isForcePush({ oldSha: shas.two!, newSha: shas.three!, ref })).toBe(true);
    expect(await facts.isForcePush({ oldSha: ZERO_SHA, newSha: shas.three!, ref })).toBe(false);
  });

  it("lists the files an update changes", async () => {
    const facts = gitRefUpdateFacts(work);
    expect(await facts.changedFiles({ oldSha: shas.one!, newSha: shas.two!, ref: "refs/heads/x" })).toEqual([
      "a.txt",
    ]);
    // A rewrite changes what it drops too: a.txt goes back from 2 to 1.
    expect(await facts.changedFiles({ oldSha: shas.two!, newSha: shas.three!, ref: "refs/heads/x" })).toEqual(
      ["a.txt", "c.txt"],
    );
  });

  it("finds the first commit without a signature", async () => {
    const facts = gitRefUpdateFacts(work);
    const update = { oldSha: shas.one!, newSha: shas.two!, ref: "refs/heads/x" };
    expect(await facts.firstUnsignedCommit(update)).toBe(shas.two);

    const raw = await cli.ok(["cat-file", "commit", shas.two!], work);
    const [headers = "", ...body] = raw.split("\n\n");
    const signed = `${headers}\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\n${body.join("\n\n")}\n`;
    await writeFile(join(root.dir, "signed"), signed);
    const signedSha = await cli.ok(["hash-object", "-t", "commit", "-w", join(root.dir, "signed")], work);
    expect(await facts.firstUnsignedCommit({ ...update, newSha: signedSha })).toBeUndefined();
  });

  it("lists the files a new branch changes from where it forks, or all files of a new history", async () => {
    const bare = join(root.dir, "bare.git");
    await cli.ok(["clone", "--bare", "--quiet", work, bare]);
    await cli.ok(["update-ref", "-d", "refs/heads/keep"], bare);
    await cli.ok(["update-ref", "refs/heads/main", shas.one!], bare);
    const facts = gitRefUpdateFacts(bare);
    const branch = { oldSha: ZERO_SHA, newSha: shas.two!, ref: "refs/heads/new" };
    expect(await facts.changedFiles(branch)).toEqual(["a.txt"]);
    expect(await facts.changedFiles({ ...branch, newSha: shas.one! })).toEqual([]);
    await cli.ok(["update-ref", "-d", "refs/heads/main"], bare);
    // A ref outside refs/heads and refs/tags is history too: three forks off one.
    await cli.ok(["update-ref", "refs/pull/1/head", shas.one!], bare);
    expect(await facts.changedFiles({ ...branch, newSha: shas.three! })).toEqual(["c.txt"]);
    await cli.ok(["pack-refs", "--all"], bare);
    expect(await facts.changedFiles({ ...branch, newSha: shas.three! })).toEqual(["c.txt"]);
    // No ref at all (a first push): every file of the new history.
    await cli.ok(["update-ref", "-d", "refs/pull/1/head"], bare);
    expect(await facts.changedFiles({ ...branch, newSha: shas.three! })).toEqual(["a.txt", "b.txt", "c.txt"]);
  });

  it("keeps a changed file whose name holds a newline whole", async () => {
    await commit("four", { "art\nhero.psd": "4" });
    const facts = gitRefUpdateFacts(work);
    expect(
      await facts.changedFiles({ oldSha: shas.three!, newSha: shas.four!, ref: "refs/heads/x" }),
    ).toEqual(["art\nhero.psd"]);
  });
});
