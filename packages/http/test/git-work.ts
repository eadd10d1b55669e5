import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** What to put in a working copy before committing: text, an executable, or a symlink. */
export type WorkFile =
  | string
  | { readonly content: string; readonly executable: true }
  | { readonly link: string };

function git(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", [...args], { cwd, env }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(" ")} failed: ${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

/**
 * Commits files with the real git CLI in a clone of a bare repository on disk and pushes the
 * commit back (no push policy: the hooks let it through), for entries the contents API cannot
 * write, such as symlinks. Resolves with the new commit's sha.
 */
export async function commitWithGit(
  gitdir: string,
  branch: string,
  files: Readonly<Record<string, WorkFile>>,
  message = "commit with git",
  date?: string,
): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "kiln-http-git-"));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Git User",
    GIT_AUTHOR_EMAIL: "git-user@example.com",
    GIT_COMMITTER_NAME: "Git User",
    GIT_COMMITTER_EMAIL: "git-user@example.com",
    ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
  };
  try {
    const work = join(home, "work");
    await git(["clone", "--quiet", gitdir, work], home, env);
    // An existing branch gets the commit on top of its head; a new one starts at the default branch.
    const exists = (await git(["branch", "--remotes", "--list", `origin/${branch}`], work, env)) !== "";
    await git(["checkout", "--quiet", "-B", branch, ...(exists ? [`origin/${branch}`] : [])], work, env);
    for (const [path, file] of Object.entries(files)) {
      const target = join(work, path);
      await mkdir(dirname(target), { recursive: true });
      if (typeof file === "string") await writeFile(target, file);
      else if ("link" in file) await symlink(file.link, target);
      else {
        await writeFile(target, file.content);
        await chmod(target, 0o755);
      }
    }
    await git(["add", "-A"], work, env);
    await git(["commit", "--quiet", "-m", message], work, env);
    await git(["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`], work, env);
    return await git(["rev-parse", "HEAD"], work, env);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
