import { randomUUID } from "node:crypto";
import type { Repository } from "@kiln/domain";
import { type GitRepository, type RefUpdate, refTarget, removeStaleRefLocks, ZERO_SHA } from "@kiln/git";
import { type Db, type RefIntent, refUpdates, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/**
 * What a journalled ref move is for: it names how a move a crash interrupted is finished (`ref`:
 * a branch or tag created or deleted through the API; `rename`: a branch renamed through the
 * API; `merged-head`: a pull request's head branch deleted after its merge; `wiki`: a wiki page
 * written through the API, whose ref is in the wiki's git; `fork-sync`: a fork's branch
 * fast-forwarded to its parent's; `mirror-sync`: a pull mirror's branches and tags replaced by
 * its remote's).
 */
export type RefMoveKind =
  | "merge"
  | "push"
  | "contents"
  | "ref"
  | "rename"
  | "merged-head"
  | "wiki"
  | "fork-sync"
  | "mirror-sync";

/** Extra facts a kind needs to finish a move (a merge's pull request and style). */
export interface RefMoveFacts {
  readonly pullId?: number;
  readonly detail?: Readonly<Record<string, unknown>>;
}

/**
 * Finishes an operation a crash interrupted, whose moves `landed` (a subset of `intents`) are
 * in git: it records their consequences as the operation would have, claiming the operation
 * with {@link RefJournal.claim} in the same transaction.
 */
export type RefMoveFinisher = (
  repo: Repository,
  git: GitRepository,
  intents: readonly RefIntent[],
  landed: readonly RefIntent[],
) => Promise<void>;

/**
 * The journal that closes the window between git moving a ref and the database recording what
 * that means (docs/architecture.md, "The git window"). An operation announces its moves
 * ({@link announce}, committed) before git makes them; the transaction recording their
 * consequences claims the operation ({@link claim}), deleting its rows. Rows a crash left are
 * reconciled ({@link reconcile}, at start-up and by the `reconcile_ref_updates` cron task): an
 * operation whose moves are in git is finished by its kind's finisher, one whose refs still hold
 * the old commits is dropped. Whoever claims the rows records the events, so they happen once.
 */
export class RefJournal {
  readonly #finishers = new Map<string, RefMoveFinisher>();
  readonly #gits = new Map<string, (repo: Repository) => Promise<GitRepository | undefined>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly gitOf: (repo: Repository) => Promise<GitRepository>,
  ) {}

  /**
   * Sets how moves of `kind` are finished after a crash, and (`gitOf`) where their refs live
   * when it is not the repository's own git (a wiki's; undefined when it is gone).
   */
  register(
    kind: RefMoveKind,
    finisher: RefMoveFinisher,
    gitOf?: (repo: Repository) => Promise<GitRepository | undefined>,
  ): void {
    this.#finishers.set(kind, finisher);
    if (gitOf) this.#gits.set(kind, gitOf);
  }

  /** Journals the moves of one operation (committed on return) and returns the operation's id. */
  async announce(
    repoId: number,
    kind: RefMoveKind,
    doerId: number | null,
    updates: readonly RefUpdate[],
    facts: RefMoveFacts = {},
  ): Promise<string> {
    const operation = randomUUID();
    await refUpdates.insertIntents(
      this.ctx.db,
      updates.map((u) => ({
        operation,
        repoId,
        ref: u.ref,
        oldSha: u.oldSha,
        newSha: u.newSha,
        kind,
        doerId,
        pullId: facts.pullId ?? null,
        detail: JSON.stringify(facts.detail ?? {}),
      })),
    );
    return operation;
  }

  /**
   * Deletes the operation's rows in the transaction recording its consequences: false when they
   * were gone (a reconciliation finished the operation already, so its events must not repeat).
   */
  async claim(trx: Db, operation: string): Promise<boolean> {
    return (await refUpdates.claimOperation(trx, operation)) > 0;
  }

  /** Deletes an operation's rows, recording nothing (a move that did not happen, or cannot be finished). */
  async drop(operation: string): Promise<void> {
    await this.ctx.db.transaction().execute((trx) => this.claim(trx, operation));
  }

  /**
   * Settles one operation now, against git (after its operation failed: a move that did not
   * happen is dropped, one that did is finished). Never throws; failures are logged.
   */
  async settle(operation: string): Promise<void> {
    try {
      const intents = await refUpdates.intentsOf(this.ctx.db, operation);
      if (intents.length > 0) await this.#reconcileOperation(intents, new Date(0));
    } catch (err) {
      this.ctx.logger.error({ err: String(err), operation }, "could not settle a journalled ref move");
    }
  }

  /**
   * Reconciles every operation announced before `before` (start-up: all; the cron task: those
   * older than a grace period, so operations in flight are left alone). Lock files older than
   * `locksBefore` on their refs are removed (a killed writer's). Returns how many were settled.
   */
  async reconcile(before: Date, locksBefore: Date = before): Promise<number> {
    const operations = new Map<string, RefIntent[]>();
    for (const intent of await refUpdates.intentsBefore(this.ctx.db, before)) {
      const list = operations.get(intent.operation) ?? [];
      list.push(intent);
      operations.set(intent.operation, list);
    }
    let settled = 0;
    for (const intents of operations.values()) {
      try {
        await this.#reconcileOperation(intents, locksBefore);
        settled++;
      } catch (err) {
        this.ctx.logger.error(
          { err: String(err), operation: intents[0]?.operation },
          "could not reconcile a journalled ref move; it stays journalled",
        );
      }
    }
    return settled;
  }

  async #reconcileOperation(intents: readonly RefIntent[], locksBefore: Date): Promise<void> {
    const [first] = intents;
    if (!first) return;
    const repo = await repositories.findRepositoryById(this.ctx.db, first.repoId);
    const drop = () => this.drop(first.operation);
    if (!repo) return void (await drop());
    const git = await (this.#gits.get(first.kind) ?? this.gitOf)(repo);
    if (!git) return void (await drop());
    const landed: RefIntent[] = [];
    for (const intent of intents) {
      await removeStaleRefLocks(git, intent.ref, locksBefore);
      const now = (await refTarget(git, intent.ref)) ?? ZERO_SHA;
      if (now === intent.newSha) landed.push(intent);
    }
    const finisher = this.#finishers.get(first.kind);
    if (landed.length === 0 || !finisher) {
      if (landed.length > 0) this.ctx.logger.error({ kind: first.kind }, "no finisher for a ref move");
      await drop();
      return;
    }
    this.ctx.logger.warn(
      { repo: repo.id, kind: first.kind, refs: landed.map((i) => i.ref) },
      "finishing ref moves a crash interrupted",
    );
    await finisher(repo, git, intents, landed);
  }
}
