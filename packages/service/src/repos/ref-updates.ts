import type { Repository, User } from "@kiln/domain";
import {
  branchTip,
  type GitHttpOptions,
  type GitRepository,
  listBranches,
  type RefUpdate,
  setDefaultBranch,
} from "@kiln/git";
import { repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { describePushes, recordRefUpdates } from "../events/ref-events.js";
import type { CommitVerifier } from "../keys/commit-verifier.js";
import { crashPoint } from "./crash-point.js";
import {
  type JournalledMoveSpec,
  type JournalledRecord,
  type JournalledRefMove,
  journalledMove,
} from "./journalled-ref-move.js";
import type { PushPolicyService } from "./push-policy-service.js";
import type { RepoService } from "./repo-service.js";

/**
 * Who follows pushes to re-check what they touch (the pull request checker): it credits a move
 * to its pusher while the move runs, and re-checks the open pull requests of moved branches.
 * An interface, so the repository layer does not import the pull requests'.
 */
export interface PushFollower {
  readonly pushes: {
    begin(repoId: number, userId: number): () => void;
    moved(repoId: number, userId: number, branches: readonly string[]): void;
  };
  pushed(repo: Repository, branches: readonly string[]): Promise<void>;
}

/** The options of a receive-pack that {@link RefUpdates.receivePack} fills in. */
export type ReceivePackOptions = Pick<
  GitHttpOptions,
  "pushPolicy" | "beforeUpdate" | "verifyCommits" | "onPushed" | "onError"
>;

/**
 * The one path that moves a repository's refs (docs/architecture.md, "The git window"): API file
 * writes, patches, branches, tags, renames, merges, pull request updates, forks, mirrors,
 * migrations and `git push` over HTTP. A move is credited to its pusher while it runs, journalled
 * before git makes it, recorded (events, default branch, the move's own rows) in one transaction
 * that claims the journal entry, and then measured; the re-check of pull requests on moved
 * branches runs in the after-commit stage (`EventRecorder.afterCommit`).
 */
export class RefUpdates {
  #follower: PushFollower | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly policies: PushPolicyService,
    private readonly verifier: Pick<CommitVerifier, "firstUnverified">,
  ) {
    // A push, an API file write, an API branch or tag change or a fork sync a crash interrupted
    // is recorded as the push it was.
    for (const kind of ["push", "contents", "ref", "fork-sync"] as const)
      repos.journal.register(kind, (repo, _git, intents, landed) =>
        this.record(repo, landed, intents[0]?.doerId, {
          operation: intents[0]?.operation ?? "",
          kind,
        }).then(() => undefined),
      );
  }

  /** Adds the follower told of pushes (created after this, since it reads repositories). */
  follow(follower: PushFollower): void {
    this.#follower = follower;
  }

  /** Runs `work` with a push by `doerId` to the repository marked as running (pusher credit). */
  async credited<T>(repoId: number, doerId: number | null, work: () => Promise<T>): Promise<T> {
    const end = doerId === null ? undefined : this.#follower?.pushes.begin(repoId, doerId);
    try {
      return await work();
    } finally {
      end?.();
    }
  }

  /**
   * Moves refs of `repo` for `doerId`: credited, journalled by `journalledMove` (`ref` kind unless
   * told), recorded as the doer's push with the move's own rows, as the kind's finisher records
   * it after a crash. A move nobody did (a mirror's sync) records only the move's own rows.
   */
  move<T>(repo: Repository, doerId: number | null, spec: JournalledRefMove<T>): Promise<T> {
    const kind = spec.kind ?? "ref";
    return this.credited(repo.id, doerId, () =>
      journalledMove(this.repos.journal, repo.id, doerId, {
        ...spec,
        kind,
        record: async (result, updates, operation) => {
          await this.record(spec.repoAfter ? spec.repoAfter(result) : repo, updates, doerId, {
            kind,
            ...(operation ? { operation } : {}),
            ...(spec.record ? { record: spec.record } : {}),
          });
        },
      }),
    );
  }

  /**
   * Moves refs of a repository's other git store (its wiki) for `doerId`: journalled by
   * `journalledMove` under the spec's kind, whose finisher (and `spec.record`) records what the
   * move means for that store. Nothing of the repository's own (its size, its pull requests)
   * follows.
   */
  moveStore<T>(repo: Repository, doerId: number, spec: JournalledMoveSpec<T>): Promise<T> {
    return journalledMove(this.repos.journal, repo.id, doerId, spec);
  }

  /**
   * Moves refs of `repo` for `doerId` whose record is the caller's own (a merge records the pull
   * request merged with its base branch's push, `pulls/merge-record.ts`): credited and journalled
   * as {@link move}, then measured and followed as {@link record} does.
   */
  async moveRecorded<T>(repo: Repository, doerId: number, spec: JournalledMoveSpec<T>): Promise<T> {
    const result = await this.credited(repo.id, doerId, () =>
      journalledMove(this.repos.journal, repo.id, doerId, spec),
    );
    const updates = spec.updatesOf(result);
    if (updates.length > 0) await this.followMove(await this.repos.git(repo), repo, updates, doerId);
    return result;
  }

  /**
   * Records refs git has already moved (a push, a mirror sync, a crash finisher): when the default
   * branch does not exist but others do (the first push of a branch with another name), that
   * branch becomes the default, as in Forgejo; the refs' events (push, create, delete) are
   * recorded for `pusherId` in one transaction which, with `journal`, claims the announcing
   * operation and writes the move's rows, leaving out what a reconciliation already recorded.
   * Then the size is measured, and pull requests on moved branches are re-checked after commit.
   */
  async record(
    repo: Repository,
    updates: readonly RefUpdate[],
    pusherId?: number | null,
    journal?: JournalledRecord,
  ): Promise<Repository> {
    if (journal) crashPoint(`${journal.kind}-after-move`);
    const git = await this.repos.git(repo);
    // Only a repository whose default branch is missing needs its branches listed (each with its
    // commit read): one ref read answers for all the others.
    const hasDefault = (await branchTip(git, repo.defaultBranch)) !== undefined;
    const branches = hasDefault ? [] : await listBranches(git);
    let nextDefault: string | undefined;
    if (branches.length > 0 && !branches.some((b) => b.name === repo.defaultBranch)) {
      const pushed = updates.find((u) => u.ref.startsWith("refs/heads/") && !/^0+$/.test(u.newSha));
      nextDefault = pushed
        ? pushed.ref.slice("refs/heads/".length)
        : (branches[0]?.name ?? repo.defaultBranch);
      await setDefaultBranch(git, nextDefault);
    }
    const recording = pusherId !== undefined && pusherId !== null && updates.length > 0;
    const pushed = recording ? await describePushes(git, updates) : new Map();
    if (nextDefault !== undefined || recording || journal) {
      await this.ctx.db.transaction().execute(async (trx) => {
        if (nextDefault !== undefined) {
          await repositories.updateRepository(trx, repo.id, { defaultBranch: nextDefault });
        }
        const mine = journal?.operation ? await this.repos.journal.claim(trx, journal.operation) : true;
        if (mine) await journal?.record?.(trx);
        if (recording && mine)
          await recordRefUpdates(this.ctx.events, trx, inRepo(repo, pusherId), updates, pushed);
      });
    }
    return this.followMove(git, repo, updates, pusherId);
  }

  /**
   * What follows a recorded move: the size measured, the repository's followers told (history
   * index, push mirrors), and the pull requests on moved branches re-checked after commit.
   */
  private async followMove(
    git: GitRepository,
    repo: Repository,
    updates: readonly RefUpdate[],
    pusherId?: number | null,
  ): Promise<Repository> {
    const after = await this.repos.refreshSize(repo.id);
    if (updates.length === 0) return after;
    this.repos.refsMoved(after, git);
    const moved = updates.filter((u) => u.ref.startsWith("refs/heads/")).map((u) => u.ref.slice(11));
    const follower = this.#follower;
    // Noted before the answer: a reader who checks a pull request first still credits the mover.
    if (follower && pusherId !== undefined && pusherId !== null && moved.length > 0)
      follower.pushes.moved(repo.id, pusherId, moved);
    // A pull request re-check that a crash loses is redone by its first reader, which compares the
    // stored state's tips with git's (PullChecker).
    if (follower && moved.length > 0)
      this.ctx.events.afterCommit({ name: "pull re-check", run: () => follower.pushed(after, moved) });
    return after;
  }

  /**
   * What a git request to the wiki of `repo` needs: for a push by `pusher`, the wiki's push policy
   * (no branch rules; ref names, limits and the owner's quota as for the repository), and
   * `recorded` (the wiki's size measured and recorded) once git moved its refs.
   */
  async wikiTransport(
    repo: Repository,
    pusher: User | null,
    recorded: (updates: readonly RefUpdate[]) => Promise<void>,
  ): Promise<ReceivePackOptions> {
    const where = `${repo.ownerName}/${repo.name}.wiki`;
    const onError = (err: unknown) => {
      this.ctx.logger.error({ err: (err as Error).message, repo: where }, "git transport error");
    };
    if (!pusher) return { onError };
    return {
      pushPolicy: await this.policies.forWikiPush(repo),
      onPushed: async (updates) => {
        await recorded(updates);
        this.ctx.logger.info({ repo: where, pusher: pusher.name, refs: updates.length }, "push");
      },
      onError,
    };
  }

  /**
   * What a receive-pack by `user` to `repo` needs (`handleGitHttp`'s options): for a push, the
   * pusher's policy (narrowed to `onlyBranches` for a maintainer of a fork's pull request),
   * journalling of the accepted updates before git applies them, and their record after.
   */
  async receivePack(
    repo: Repository,
    user: User | null,
    onlyBranches?: readonly string[],
  ): Promise<ReceivePackOptions> {
    const verifyCommits = (commits: Parameters<CommitVerifier["firstUnverified"]>[0]) =>
      this.verifier.firstUnverified(commits);
    const policy = user ? await this.policies.forPush(repo, user) : undefined;
    const pushPolicy = policy && onlyBranches ? { ...policy, onlyBranches } : policy;
    // A pull request whose head this push moves is credited to the pusher, whoever reads it first.
    const endPush = user ? this.#follower?.pushes.begin(repo.id, user.id) : undefined;
    let operation: string | undefined;
    const where = `${repo.ownerName}/${repo.name}`;
    return {
      ...(pushPolicy ? { pushPolicy } : {}),
      verifyCommits,
      beforeUpdate: async (updates) => {
        operation = await this.repos.journal.announce(repo.id, "push", user?.id ?? null, updates);
      },
      onPushed: async (updates) => {
        try {
          // git's probe before a large push (and a push of nothing) changes no ref.
          if (updates.length === 0 && !operation) return;
          const after = await this.record(
            repo,
            updates,
            user?.id ?? null,
            operation ? { operation, kind: "push" } : undefined,
          );
          this.ctx.logger.info(
            { repo: where, pusher: user?.name, refs: updates.length, gitSize: after.gitSize },
            "push",
          );
        } finally {
          endPush?.();
        }
      },
      onError: (err) => {
        endPush?.();
        if (operation) void this.repos.journal.settle(operation);
        this.ctx.logger.error({ err: (err as Error).message, repo: where }, "git transport error");
      },
    };
  }
}
