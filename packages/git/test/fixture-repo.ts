import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GitRepository } from "../src/disk/git-repository.js";
import { RepoStore } from "../src/disk/repo-store.js";
import { GitCli, scratch } from "./helpers.js";

/** A repository built with the git CLI: three commits on main, a branch and two tags. */
export interface FixtureRepo {
  store: RepoStore;
  repo: GitRepository;
  cli: GitCli;
  shas: { one: string; two: string; three: string; submodule: string };
  cleanup: () => Promise<void>;
}

/**
 * Commits, on main: (one) README.md, src/index.ts, run.sh (executable), link (symlink to
 * README.md), vendor/lib.js, docs/guide.md, Dockerfile; (two) edits src/index.ts and adds a
 * submodule `ext`; (three) deletes docs/guide.md. Branch `feature` at two, tag `v1`
 * (lightweight) at one, tag `v2` (annotated) at three.
 */
export async function fixtureRepo(): Promise<FixtureRepo> {
  const root = await scratch();
  const store = new RepoStore({ root: join(root.dir, "repos") });
  const cli = await new GitCli(root.dir).setup();
  const repo = await store.create("alice", "fixture");
  const work = join(root.dir, "work");
  await cli.ok(["init", "--quiet", work]);
  const env = (date: string) => ({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });

  await mkdir(join(work, "src"));
  await mkdir(join(work, "vendor"));
  await mkdir(join(work, "docs"));
  await writeFile(join(work, "README.md"), "# fixture\n");
  await writeFile(join(work, "src/index.ts"), "export const a = 1;\nexport const b = 2;\n");
  await writeFile(join(work, "run.sh"), "#!/bin/sh\necho run\n");
  await chmod(join(work, "run.sh"), 0o755);
  await symlink("README.md", join(work, "link"));
  await writeFile(join(work, "vendor/lib.js"), "var x = 1;\n");
  await writeFile(join(work, "docs/guide.md"), "guide\n");
  await writeFile(join(work, "Dockerfile"), "FROM scratch\n");
  await cli.ok(["add", "-A"], work);
  await cli.ok(["commit", "--quiet", "-m", "First commit"], work, env("2024-01-01T10:00:00+02:00"));
  const one = await cli.ok(["rev-parse", "HEAD"], work);

  await writeFile(
    join(work, "src/index.ts"),
    "export const a = 10;\nexport const b = 2;\nexport const c = 3;\n",
  );
  const submodule = "1234567890abcdef1234567890abcdef12345678";
  await writeFile(
    join(work, ".gitmodules"),
    '[submodule "ext"]\n\tpath = ext\n\turl = https://example.com/ext.git\n',
  );
  await cli.ok(["add", "-A"], work);
  await cli.ok(["update-index", "--add", "--cacheinfo", `160000,${submodule},ext`], work);
  await cli.ok(
    ["commit", "--quiet", "-m", "Second commit\n\nWith a body."],
    work,
    env("2024-01-02T10:00:00-05:00"),
  );
  const two = await cli.ok(["rev-parse", "HEAD"], work);
  await cli.ok(["branch", "feature"], work);

  await cli.ok(["rm", "--quiet", "docs/guide.md"], work);
  await mkdir(join(work, "ext"));
  await cli.ok(["commit", "--quiet", "-m", "Third commit"], work, env("2024-01-03T10:00:00Z"));
  const three = await cli.ok(["rev-parse", "HEAD"], work);
  await cli.ok(["tag", "v1", one], work);
  await cli.ok(["tag", "-a", "v2", "-m", "Version 2"], work, env("2024-01-04T10:00:00Z"));
  await cli.ok(["push", "--quiet", repo.gitdir, "main", "feature", "v1", "v2"], work);

  return { store, repo, cli, shas: { one, two, three, submodule }, cleanup: root.cleanup };
}
