import {
  AlreadyExistsError,
  BadRequestError,
  isKilnError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  cloneFork,
  evaluateRefUpdate,
  fastForwardFork,
  forkBranchState,
  GitPushRefusedError,
  gitRefUpdateFacts,
  isValidRefName,
} from "@kiln/git";
import { type Db, forks, type RepoViewer, repositories } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import type { Actor } from "../access/actor.js";
import { mayForkInto } from "../access/owner-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { assertNotBlocked } from "../social/block-service.js";
import { withGitErrors } from "./git-errors.js";
import type { PushPolicyService } from "./push-policy-service.js";
import type { RefUpdates } from "./ref-updates.js";
import { checkRepoName } from "./repo-names.js";
import type { RepoService } from "./repo-service.js";

/** Forgejo's SyncForkInfo: where a branch of a fork stands against its parent's. */
export interface SyncForkInfo {
  readonly allowed: boolean;
  readonly commitsBehind: number;
  readonly baseCommit: string;
  readonly forkCommit: string;
}

const NOTHING: SyncForkInfo = { allowed: false, commitsBehind: 0, baseCommit: "", forkCommit: "" };

/**
 * Forks (Forgejo's services/repository/fork.go and sync_fork.go): creating one (a local clone that
 * hard-links the parent's objects, then the row, the parent's fork count and the `fork` event in
 * one transaction), listing them, and fast-forwarding a fork's branch from its parent.
 */
export class ForkService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly ledger: QuotaLedger,
    private readonly pushPolicies: PushPolicyService,
    private readonly access: AccessService,
  ) {}

  /**
   * Forks `base` (owned by `baseOwner`) for `owner`, the doer or an organization the doer belongs
   * to and may create repositories in, under `name` (the base's name by default). Forgejo's rules:
   * 403 outside the organization, 409 when the owner already has a fork of `base`, the name is
   * taken or the owner's repository limit is reached. A fork of a private repository, or of a
   * private owner's, is private.
   */
  async fork(doer: User, base: Repository, baseOwner: User, owner: User, name?: string): Promise<Repository> {
    await this.checkTarget(doer, owner);
    // Forgejo refuses a fork to whom the repository's owner blocks.
    await assertNotBlocked(this.ctx.db, [base.ownerId], doer.id);
    const forkName = name ?? base.name;
    checkRepoName(forkName);
    const existing = await forks.findUserFork(this.ctx.db, base.id, owner.id);
    if (existing) {
      throw new AlreadyExistsError(
        `repository is already forked by user [uname: ${owner.name}, repo path: ${base.ownerName}/${base.name}, fork path: ${existing.ownerName}/${existing.name}]`,
      );
    }
    return this.repos.createWith(
      owner,
      forkName,
      {
        isPrivate: base.isPrivate || baseOwner.visibility === "private",
        description: base.description,
        defaultBranch: base.defaultBranch,
        forkId: base.id,
        creatorId: doer.id,
        withRow: async (trx, row) => {
          const parent = await repositories.lockRepository(trx, base.id);
          if (!parent) throw new NotFoundError("the repository being forked was deleted");
          await forks.recountForks(trx, base.id);
          await copyLfs(trx, this.ledger, base.id, row);
          // Forgejo's notify ForkRepository: the `fork` event of the parent, naming the fork.
          await this.ctx.events.record(trx, { ...inRepo(base, doer.id), type: "fork", forkRepoId: row.id });
        },
      },
      async () => {
        await withGitErrors(() =>
          cloneFork(
            this.repos.store,
            { owner: base.ownerName, name: base.name },
            { owner: owner.name, name: forkName },
          ),
        );
      },
    );
  }

  /**
   * Whether `doer` may fork into `owner` (asked before quota, as Forgejo): 403 for an organization
   * the doer is not a member of or may not create repositories in; 409 at the repository limit.
   */
  async checkTarget(doer: User, owner: User): Promise<void> {
    if (owner.type === "organization") {
      const standing = await this.permissions.inOrganization(owner, doer);
      if (!mayForkInto(doer, owner, standing.isMember))
        throw new PermissionDeniedError(`User is no Member of Organisation '${owner.name}'`);
    }
    await this.repos.checkMayCreate(doer, owner).catch((err: unknown) => {
      // Forgejo answers a reached repository limit of a fork with 409 (ErrReachLimitOfRepo).
      if (err instanceof PermissionDeniedError && err.message.startsWith("You have already reached")) {
        throw new AlreadyExistsError(err.message);
      }
      throw err;
    });
  }

  /** The parents of the forks among `repos`, by id, in one query (whoever may see them: the caller decides). */
  async parentsOf(repos: readonly Repository[]): Promise<Repository[]> {
    const ids = [...new Set(repos.flatMap((r) => (r.isFork && r.forkId !== null ? [r.forkId] : [])))];
    return forks.findByIds(this.ctx.db, ids);
  }

  /** One page of the forks of `base` that `viewer` may see (the access module's fragment, in SQL). */
  async list(viewer: RepoViewer, base: Repository, page: PageRequest): Promise<Paged<Repository>> {
    return this.repos.list(viewer, { forkId: base.id }, page);
  }

  /**
   * Forgejo's GetSyncForkInfo for `branch` of a fork as `fork.actor` sees it: 400 for a repository
   * that is not a fork, 404 when the fork has no such branch; nothing allowed for an archived fork
   * or when the parent's branch is missing, equal, or has diverged. A parent whose code the actor
   * may not read (now) is answered like a parent without the branch, so nothing of it shows.
   */
  async info(fork: RepoAccess, branch: string): Promise<SyncForkInfo> {
    return (await this.compare(fork, branch)).state;
  }

  /**
   * Forgejo's SyncFork: fast-forwards `branch` of the fork to the parent's tip when {@link info}
   * allows it (400 "You can't sync this branch" otherwise, a parent the doer may no longer read
   * included), then records the push for the doer and re-measures the fork like any push.
   */
  async sync(fork: RepoAccess, branch: string): Promise<void> {
    const doer = fork.viewer;
    if (!doer) throw new BadRequestError("You can't sync this branch");
    const { state, parent } = await this.compare(fork, branch);
    if (!state.allowed || !parent) throw new BadRequestError("You can't sync this branch");
    const [parentGit, forkGit] = await Promise.all([this.repos.git(parent), this.repos.git(fork.repo)]);
    // Forgejo pushes into the fork through its hooks: the branch's protection and the owner's
    // quota judge the update as they would judge a push of it by the doer.
    const policy = await this.pushPolicies.forPush(fork.repo, doer);
    const check = async (update: { ref: string; oldSha: string; newSha: string }) => {
      const verdict = await evaluateRefUpdate(policy, update, gitRefUpdateFacts(forkGit.gitdir));
      return verdict.allowed ? undefined : verdict.message;
    };
    // Journalled (kind `fork-sync`): a crash after the ref moved still records the push.
    const update = await this.refs.move(fork.repo, doer.id, {
      kind: "fork-sync",
      move: (beforeMove) =>
        withGitErrors(() =>
          fastForwardFork(parentGit, forkGit, branch, state.forkCommit, state.baseCommit, check, beforeMove),
        ).catch((err: unknown) => {
          if (err instanceof GitPushRefusedError) throw new BadRequestError(err.message);
          throw err;
        }),
      updatesOf: (moved) => (moved ? [moved] : []),
    });
    if (!update) throw new BadRequestError("You can't sync this branch");
  }

  /** Where `branch` of the fork stands, and the parent it was compared with (none when hidden from the actor). */
  private async compare(
    access: RepoAccess,
    branch: string,
  ): Promise<{ state: SyncForkInfo; parent?: Repository }> {
    const fork = access.repo;
    // Only a branch name: revision syntax (`main~1`) or a refspec (`a:b`) never reaches git.
    if (!isValidRefName(`refs/heads/${branch}`))
      throw new NotFoundError(`branch does not exist [repo_id: ${fork.id} name: ${branch}]`);
    if (!fork.isFork || fork.forkId === null) throw new BadRequestError("The Repo must be a fork");
    if (fork.isArchived) return { state: NOTHING };
    const parent = await this.readableParent(access.actor, fork.forkId);
    const forkGit = await this.repos.git(fork);
    // Without a readable parent the fork is compared with itself: only its own tip is reported.
    const parentGit = parent ? await this.repos.git(parent) : forkGit;
    const state = await withGitErrors(() => forkBranchState(parentGit, forkGit, branch)).catch(
      (err: unknown) => {
        if (isKilnError(err) && err.kind === "not_found") {
          throw new NotFoundError(`branch does not exist [repo_id: ${fork.id} name: ${branch}]`);
        }
        throw err;
      },
    );
    if (!parent) return { state: { ...NOTHING, forkCommit: state.forkCommit } };
    return { state, parent };
  }

  /** The fork's parent when `actor` may read its code, asked of the access module on every call. */
  private async readableParent(actor: Actor, parentId: number): Promise<Repository | undefined> {
    try {
      return (await this.access.repoById(actor, parentId, { read: "repo.code" })).repo;
    } catch (err) {
      if (err instanceof NotFoundError || err instanceof PermissionDeniedError) return undefined;
      throw err;
    }
  }
}

/**
 * The LFS objects of `fromRepoId` referenced by the new repository `row` too (Forgejo's CopyLFS),
 * its `lfs_size` set and the owner's usage moved, in the transaction that records `row`.
 */
export async function copyLfs(
  trx: Db,
  ledger: QuotaLedger,
  fromRepoId: number,
  row: Repository,
): Promise<void> {
  const lfsSize = await forks.copyLfsObjects(trx, fromRepoId, row.id);
  if (lfsSize === 0) return;
  const after = await repositories.updateRepository(trx, row.id, { lfsSize });
  if (after) await ledger.recordRepositoryChange(trx, row, after);
}
