// Builds (once, cached under the OS temp dir) a bare repository with 10,000 commits for the
// transport benchmark, using git fast-import so it takes seconds rather than minutes.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const COMMITS = 10_000;
const FILES = 200;

/** Writes the fast-import stream: each commit rewrites one of FILES files with a few lines. */
function* stream() {
  for (let index = 1; index <= COMMITS; index++) {
    const path = `src/module-${index % FILES}/file.txt`;
    const content = `${Array.from({ length: 20 }, (_, line) => `commit ${index} line ${line} ${"x".repeat(40)}`).join("\n")}\n`;
    const message = `Commit number ${index}\n`;
    const time = 1_700_000_000 + index * 60;
    yield [
      "commit refs/heads/main",
      `mark :${index}`,
      `author Bench <bench@example.com> ${time} +0000`,
      `committer Bench <bench@example.com> ${time} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(index > 1 ? [`from :${index - 1}`] : []),
      `M 100644 inline ${path}`,
      `data ${Buffer.byteLength(content)}`,
      content,
    ].join("\n");
  }
}

/** Returns the path of the cached source repository, building it on first use. */
export async function sourceRepository() {
  const dir = join(tmpdir(), "kiln-bench-git-transport");
  const repo = join(dir, `source-${COMMITS}.git`);
  if (existsSync(join(repo, "kiln-complete"))) return repo;
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "--bare", "--quiet", "--initial-branch=main", repo], { stdio: "inherit" });
  const child = spawn("git", ["fast-import", "--quiet"], {
    cwd: repo,
    stdio: ["pipe", "inherit", "inherit"],
  });
  for (const chunk of stream()) {
    if (!child.stdin.write(`${chunk}\n`)) await new Promise((resolve) => child.stdin.once("drain", resolve));
  }
  child.stdin.end();
  const code = await new Promise((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`git fast-import failed with ${code}`);
  spawnSync("git", ["gc", "--quiet", "--aggressive"], { cwd: repo, stdio: "inherit" });
  spawnSync("touch", [join(repo, "kiln-complete")]);
  return repo;
}
