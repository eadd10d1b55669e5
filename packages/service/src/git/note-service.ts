import { InvalidArgumentError, NotFoundError, type Repository, type User } from "@kiln/domain";
import { getNote, isValidRefName, removeNote, resolveCommitSha, setNote } from "@kiln/git";
import type { ServiceContext } from "../context.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { userSignature } from "./commit-identity.js";
import type { CommitDetailOptions, CommitService, CommitsView } from "./commit-service.js";

/** A commit's note with the commit of the notes history that last wrote it (Forgejo's `Note`). */
export interface NoteView {
  readonly message: string;
  readonly commit: CommitsView;
}

/** Forgejo's `IsValidRefPattern` check of the `{sha}` path parameter: 422 otherwise. */
function checkIdentifier(identifier: string): void {
  if (!isValidRefName(identifier)) throw new InvalidArgumentError(`no valid ref or sha: ${identifier}`);
}

/**
 * Git notes on `refs/notes/commits` (Forgejo's routers/api/v1/repo/notes.go): read by anyone who
 * reads the code, written and removed by its writers. The note's `commit` is the notes-history
 * commit that last changed it, as Forgejo answers.
 */
export class NoteService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly commits: CommitService,
  ) {}

  /** The note of the commit `identifier` (sha, short sha, branch or tag) names; 404 when there is none. */
  async get(repo: Repository, identifier: string, options: CommitDetailOptions = {}): Promise<NoteView> {
    checkIdentifier(identifier);
    const git = await this.repos.git(repo);
    const sha = await this.resolve(repo, identifier);
    const note = await withGitErrors(() => getNote(git, sha));
    return { message: note.message, commit: await this.commits.get(repo, note.noteCommit, options) };
  }

  /** Writes or replaces the note of a commit by `doer`, then answers it as {@link get}. */
  async set(repo: Repository, doer: User, identifier: string, message: string): Promise<NoteView> {
    checkIdentifier(identifier);
    const git = await this.repos.git(repo);
    const sha = await this.resolve(repo, identifier);
    await withGitErrors(() => setNote(git, sha, message, userSignature(doer, this.ctx.settings)));
    await this.repos.refreshSize(repo.id);
    return this.get(repo, sha);
  }

  /** Removes the note of a commit by `doer`; 404 when the commit or its note does not exist. */
  async remove(repo: Repository, doer: User, identifier: string): Promise<void> {
    checkIdentifier(identifier);
    const git = await this.repos.git(repo);
    const sha = await this.resolve(repo, identifier);
    await withGitErrors(() => removeNote(git, sha, userSignature(doer, this.ctx.settings)));
    await this.repos.refreshSize(repo.id);
  }

  private async resolve(repo: Repository, identifier: string): Promise<string> {
    if (repo.isEmpty) throw new NotFoundError(`commit ${identifier} does not exist`);
    const git = await this.repos.git(repo);
    return withGitErrors(() => resolveCommitSha(git, identifier), {
      empty_repository: () => new NotFoundError(`commit ${identifier} does not exist`),
    });
  }
}
