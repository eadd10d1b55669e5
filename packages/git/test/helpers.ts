import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A scratch directory removed by `cleanup`. */
export async function scratch(prefix = "kiln-git-"): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** What a git CLI run printed. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** An isolated git CLI user: own HOME and global config, fixed identity, no prompts. */
export class GitCli {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(home: string) {
    this.home = home;
    this.env = {
      PATH: process.env.PATH,
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Alice",
      GIT_AUTHOR_EMAIL: "alice@example.com",
      GIT_COMMITTER_NAME: "Alice",
      GIT_COMMITTER_EMAIL: "alice@example.com",
    };
  }

  /** Writes the global config (default branch, LFS filters) once. */
  async setup(): Promise<this> {
    await writeFile(
      join(this.home, ".gitconfig"),
      [
        "[init]\n\tdefaultBranch = main",
        "[advice]\n\tdetachedHead = false",
        '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true',
        "[lfs]\n\tlocksverify = false",
        "",
      ].join("\n"),
    );
    return this;
  }

  /** Runs git; never throws on a non-zero exit. */
  run(args: string[], cwd?: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        "git",
        args,
        { cwd: cwd ?? this.home, env: { ...this.env, ...extraEnv }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  /** Runs git and throws with its stderr on failure; resolves with trimmed stdout. */
  async ok(args: string[], cwd?: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
    const result = await this.run(args, cwd, extraEnv);
    if (result.code !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
    return result.stdout.trim();
  }
}

/** The empty tree, which git knows without storing it. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/**
 * A commit of the empty tree in the repository at `gitdir` whose message is exactly `message`
 * (`git commit-tree -F`, no clean-up), on `parents`; the message goes through a file in `dir`.
 */
export async function rawCommit(
  cli: GitCli,
  gitdir: string,
  dir: string,
  message: string,
  ...parents: string[]
): Promise<string> {
  const file = join(dir, "message");
  await writeFile(file, message);
  return cli.ok([
    "--git-dir",
    gitdir,
    "commit-tree",
    EMPTY_TREE,
    ...parents.flatMap((p) => ["-p", p]),
    "-F",
    file,
  ]);
}
