import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { gitIn, gitOk, identityEnv } from "../pulls/git-cli.js";
import { refsChanged } from "./repo-state.js";
import type { SignatureInput } from "./signature.js";

/** The notes ref Forgejo reads and writes (git's default). */
export const NOTES_REF = "refs/notes/commits";

/** A commit's note and the commit of the notes history that last changed it (Forgejo's `git.Note`). */
export interface NoteInfo {
  readonly message: string;
  /** The commit on {@link NOTES_REF} that last wrote this note. */
  readonly noteCommit: string;
}

/** Where the note of `commit` sits in the notes tree (git fans notes out as `ab/cdef…`), if it has one. */
async function notePath(repo: GitRepository, commit: string): Promise<string | undefined> {
  const listed = await gitIn(repo, ["ls-tree", "-r", "-z", "--name-only", NOTES_REF]);
  if (listed.code !== 0) return undefined;
  return listed.stdout
    .toString("utf8")
    .split("\0")
    .find((path) => path.replaceAll("/", "") === commit);
}

/** The note of a commit (full sha); not-found when it has none. */
export async function getNote(repo: GitRepository, commit: string): Promise<NoteInfo> {
  const path = await notePath(repo, commit);
  if (!path) throw new GitNotFoundError(`commit ${commit} has no note`);
  const message = await gitIn(repo, ["cat-file", "blob", `${NOTES_REF}:${path}`]);
  if (message.code !== 0) throw new GitNotFoundError(`commit ${commit} has no note`);
  const noteCommit = await gitOk(repo, ["log", "-1", "--format=%H", NOTES_REF, "--", path]);
  return { message: message.stdout.toString("utf8"), noteCommit };
}

/**
 * Writes (or replaces) the note of a commit (full sha) as `git notes add -f` does, by `who`, under
 * the repository's write lock.
 */
export async function setNote(
  repo: GitRepository,
  commit: string,
  message: string,
  who: SignatureInput,
): Promise<void> {
  await repo.withWriteLock(async () => {
    try {
      await gitOk(repo, ["notes", "--ref", NOTES_REF, "add", "-f", "-F", "-", commit], {
        input: message,
        env: { ...identityEnv("AUTHOR", who), ...identityEnv("COMMITTER", who) },
      });
    } finally {
      refsChanged(repo.gitdir);
    }
  });
}

/** Removes the note of a commit (full sha), by `who`; not-found when it has none. */
export async function removeNote(repo: GitRepository, commit: string, who: SignatureInput): Promise<void> {
  await repo.withWriteLock(async () => {
    if (!(await notePath(repo, commit))) throw new GitNotFoundError(`commit ${commit} has no note`);
    try {
      await gitOk(repo, ["notes", "--ref", NOTES_REF, "remove", commit], {
        env: { ...identityEnv("AUTHOR", who), ...identityEnv("COMMITTER", who) },
      });
    } finally {
      refsChanged(repo.gitdir);
    }
  });
}
