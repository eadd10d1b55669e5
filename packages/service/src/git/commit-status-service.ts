import type { Paged, PageRequest, User } from "@kiln/domain";
import { resolveCommitSha } from "@kiln/git";
import { type CommitStatusRow, commitStatuses, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { signedInViewer } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";

/** Forgejo's commit status states, worst first (services' CalcCommitStatus priorities). */
export const COMMIT_STATUS_STATES = ["error", "failure", "warning", "pending", "success"] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** Statuses with the accounts that reported them (null: a deleted account, shown as Ghost). */
export interface CommitStatusView {
  readonly items: readonly CommitStatusRow[];
  readonly total: number;
  readonly creators: ReadonlyMap<number, User>;
}

/** The combined status of a commit: the latest status of each context and their worst state. */
export interface CombinedStatusView extends CommitStatusView {
  readonly sha: string;
  /** The worst state among the latest statuses; undefined when the commit has none. */
  readonly state: CommitStatusState | undefined;
}

/**
 * Commit statuses (Forgejo's routers/api/v1/repo/status.go and services/repository/commitstatus):
 * reported by tools with write access to the code, read by anyone who may read it.
 */
export class CommitStatusService {
  readonly #listeners: ((repo: RepoAccess, sha: string) => Promise<void>)[] = [];

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
  ) {}

  /**
   * Adds a function told after a status was stored (Forgejo starts scheduled merges waiting for
   * checks then); it must not throw.
   */
  onCreated(listener: (repo: RepoAccess, sha: string) => Promise<void>): void {
    this.#listeners.push(listener);
  }

  /** Records a status on the commit `name` stands for (a sha or a ref); 404 when there is none. */
  async create(
    repo: RepoAccess,
    name: string,
    input: { state: CommitStatusState; targetUrl: string; description: string; context: string },
  ): Promise<CommitStatusView> {
    const viewer = signedInViewer(repo.actor);
    const sha = await this.#resolve(repo, name);
    const row = await commitStatuses.insertCommitStatus(this.ctx.db, {
      repoId: repo.repo.id,
      sha,
      ...input,
      creatorId: viewer.id,
    });
    for (const listener of this.#listeners) await listener(repo, sha);
    return { items: [row], total: 1, creators: new Map(repo.viewer ? [[viewer.id, repo.viewer]] : []) };
  }

  /** A page of the statuses of a commit named by its full sha (as Forgejo: no resolution). */
  async list(
    repo: RepoAccess,
    sha: string,
    options: { sort?: string; state?: string },
    page: PageRequest,
  ): Promise<CommitStatusView> {
    return this.#withCreators(
      await commitStatuses.listCommitStatuses(this.ctx.db, repo.repo.id, sha, options, page),
    );
  }

  /** The statuses of the commit a branch, tag or sha names; 404 when it names none. */
  async listByRef(
    repo: RepoAccess,
    ref: string,
    options: { sort?: string; state?: string },
    page: PageRequest,
  ): Promise<CommitStatusView> {
    return this.list(repo, await this.#resolve(repo, ref), options, page);
  }

  /** The combined status of the commit a ref names; 404 when it names none. */
  async combined(repo: RepoAccess, ref: string, page: PageRequest): Promise<CombinedStatusView> {
    const sha = await this.#resolve(repo, ref);
    const latest = await this.#withCreators(
      await commitStatuses.latestCommitStatuses(this.ctx.db, repo.repo.id, sha, page),
    );
    return { ...latest, sha, state: worstState(latest.items.map((s) => s.state)) };
  }

  async #resolve(repo: RepoAccess, name: string): Promise<string> {
    const git = await this.repos.git(repo.repo);
    return withGitErrors(() => resolveCommitSha(git, name));
  }

  async #withCreators(page: Paged<CommitStatusRow>): Promise<CommitStatusView> {
    const ids = [...new Set(page.items.flatMap((s) => (s.creatorId === null ? [] : [s.creatorId])))];
    const found = await users.findUsersByIds(this.ctx.db, ids);
    return { items: page.items, total: page.total, creators: new Map(found.map((u) => [u.id, u])) };
  }
}

/** Forgejo's CalcCommitStatus: the worst of the states (error < failure < warning < pending < success). */
export function worstState(states: readonly string[]): CommitStatusState | undefined {
  let worst: number | undefined;
  for (const state of states) {
    const rank = COMMIT_STATUS_STATES.indexOf(state as CommitStatusState);
    if (rank >= 0 && (worst === undefined || rank < worst)) worst = rank;
  }
  return worst === undefined ? undefined : COMMIT_STATUS_STATES[worst];
}
