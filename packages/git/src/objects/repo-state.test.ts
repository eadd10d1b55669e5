import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { listBranches } from "./branches.js";
import { lookupRef, refSnapshot, refsChanged } from "./repo-state.js";

const DIST = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** Runs a script under a shell whose open-file limit is `limit` descriptors; resolves with its output. */
function withFileLimit(
  limit: number,
  script: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "sh",
      ["-c", `ulimit -n ${limit} && exec "$0" --input-type=module -e "$1"`, process.execPath, script],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("ref snapshots of a repository with thousands of loose refs", () => {
  let fx: FixtureRepo;
  const BRANCHES = 3000;

  beforeAll(async () => {
    fx = await fixtureRepo();
    const sha = await fx.cli.ok(["--git-dir", fx.repo.gitdir, "rev-parse", "refs/heads/main"]);
    // Loose ref files, as a push of that many branches leaves them (and a nested directory).
    await mkdir(join(fx.repo.gitdir, "refs/heads/many/deep"), { recursive: true });
    await Promise.all(
      Array.from({ length: BRANCHES }, (_, i) =>
        writeFile(join(fx.repo.gitdir, "refs/heads/many", i % 2 ? `b${i}` : `deep/b${i}`), `${sha}\n`),
      ),
    );
    refsChanged(fx.repo.gitdir);
  });
  afterAll(() => fx.cleanup());

  it("reads every ref, packed or loose, symbolic refs included", async () => {
    const snapshot = await refSnapshot(fx.repo.gitdir);
    expect(snapshot.names.filter((n) => n.startsWith("refs/heads/many/"))).toHaveLength(BRANCHES);
    expect(lookupRef(snapshot, "refs/heads/many/b1")).toBe(lookupRef(snapshot, "refs/heads/main"));
    expect(lookupRef(snapshot, "refs/tags/v1")).toMatch(/^[0-9a-f]{40}$/);
    expect(lookupRef(snapshot, "HEAD")).toBe(lookupRef(snapshot, "refs/heads/main"));
    expect(snapshot.byAge).toBe(true);
  });

  it("lists them under an open-file limit far below their number (one descriptor per ref ran out)", async () => {
    const script = `
      const { RepoStore, listBranches } = await import(${JSON.stringify(DIST)});
      const store = new RepoStore({ root: ${JSON.stringify(fx.store.root)} });
      const branches = await listBranches(await store.open("alice", "fixture"));
      console.log(branches.length);
    `;
    const run = await withFileLimit(128, script);
    expect(run.stderr).not.toMatch(/EMFILE/);
    expect(run.code).toBe(0);
    expect(Number(run.stdout.trim())).toBe(BRANCHES + 2);
    expect((await listBranches(fx.repo)).length).toBe(BRANCHES + 2);
  });
});
