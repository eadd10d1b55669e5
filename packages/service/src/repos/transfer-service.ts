import {
  ConflictError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  type Repository,
  type Team,
  type User,
} from "@kiln/domain";
import {
  collaborations,
  notifications,
  type RepoTransferRow,
  redirects,
  repositories,
  repoTransfers,
  teams as teamQueries,
  users,
} from "@kiln/storage";
import { actorFor, viewerOf } from "../access/actor.js";
import { canSeeAccount } from "../access/org-permission.js";
import { mayCreateRepoFor } from "../access/owner-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import { hasAccess } from "../access/repo-permission.js";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { QuotaService } from "../quota/quota-service.js";
import { assertNotBlocked } from "../social/block-service.js";
import type { RepoService } from "./repo-service.js";

/** A pending transfer of a repository. */
export interface PendingTransfer {
  readonly doer: User;
  readonly recipient: User;
  readonly teams: readonly Team[];
}

/**
 * Ownership transfers (Forgejo's services/repository/transfer.go). A site admin, a user moving a
 * repository to themselves, or a user who may create repositories in the target organization
 * transfers at once (202); anything else becomes a pending transfer the recipient accepts or
 * rejects (201). The target organization must be visible to the doer (404 otherwise). Usage
 * moves to the new owner in the quota ledger, in the transaction that moves the repository;
 * with `[quota] ENFORCE` a new owner over quota (`size:repos:all`) is refused at the start and at
 * the acceptance, as in Forgejo.
 */
export class TransferService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly ledger: QuotaLedger,
    private readonly repos: RepoService,
    private readonly quota: QuotaService,
  ) {}

  /** Starts a transfer; resolves with whether it was done at once or is pending. */
  async start(
    doer: User,
    repo: Repository,
    newOwnerName: string,
    teamIds: readonly number[] | undefined,
  ): Promise<"transferred" | "pending"> {
    const newOwner = await users.findUserByName(this.ctx.db, newOwnerName);
    const hidden = "The new owner does not exist or cannot be found";
    if (!newOwner) throw new NotFoundError(hidden);
    // Nobody hands a repository to someone who blocks them (Forgejo's StartRepositoryTransfer).
    await assertNotBlocked(this.ctx.db, [newOwner.id], doer.id);
    if (newOwner.type === "organization") {
      const member = (await this.permissions.inOrganization(newOwner, doer)).isMember;
      if (!canSeeAccount(viewerOf(actorFor(doer)), newOwner, member)) throw new NotFoundError(hidden);
    }
    // Forgejo's CheckQuota of the new owner: after it is found, before the teams are checked.
    await this.quota.enforce(newOwner, "size:repos:all");
    const teams = await this.resolveTeams(newOwner, teamIds);
    if (newOwner.id === repo.ownerId)
      throw new InvalidArgumentError("the repository already belongs to the new owner");
    if (await repoTransfers.findTransfer(this.ctx.db, repo.id))
      throw new ConflictError("repository is already being transferred");
    const direct = mayCreateRepoFor(doer, newOwner, await this.orgGrants(newOwner, doer));
    if (direct) {
      await this.transferOwnership(repo, newOwner, teams);
      return "transferred";
    }
    // Decided before the transaction: inside it only `trx` may be used (PGlite is one connection).
    const needsAccess =
      newOwner.type === "individual" && !hasAccess(await this.permissions.forRepository(newOwner, repo));
    await this.ctx.db.transaction().execute(async (trx) => {
      if (needsAccess) await collaborations.upsertCollaborator(trx, repo.id, newOwner.id, "read");
      await repoTransfers.insertTransfer(trx, {
        repoId: repo.id,
        doerId: doer.id,
        recipientId: newOwner.id,
        teamIds: teams.map((t) => t.id),
      });
      await notifications.notifyRepoTransfer(trx, {
        repoId: repo.id,
        recipientId: newOwner.id,
        actorId: doer.id,
        at: new Date(),
      });
    });
    return "pending";
  }

  /** The pending transfer of a repository, if any. */
  async pending(repo: Repository): Promise<PendingTransfer | undefined> {
    return this.describe(await repoTransfers.findTransfer(this.ctx.db, repo.id));
  }

  /** The pending transfers of a list of repositories, by repository id, from one query. */
  async pendingFor(repos: readonly Repository[]): Promise<Map<number, PendingTransfer>> {
    const rows = await repoTransfers.findTransfers(
      this.ctx.db,
      repos.map((r) => r.id),
    );
    const out = new Map<number, PendingTransfer>();
    for (const row of rows) {
      const transfer = await this.describe(row);
      if (transfer) out.set(row.repoId, transfer);
    }
    return out;
  }

  private async describe(row: RepoTransferRow | undefined): Promise<PendingTransfer | undefined> {
    if (!row) return undefined;
    const [doer, recipient] = await Promise.all([
      users.findUserById(this.ctx.db, row.doerId),
      users.findUserById(this.ctx.db, row.recipientId),
    ]);
    if (!doer || !recipient) return undefined;
    const teams = (
      await Promise.all(row.teamIds.map((id) => teamQueries.findTeamById(this.ctx.db, id)))
    ).filter((t): t is Team => t !== undefined);
    return { doer, recipient, teams };
  }

  /** Accepts (moving the repository) or rejects a pending transfer; only its recipient may (403). */
  async decide(doer: User, repo: Repository, accept: boolean): Promise<void> {
    const transfer = await this.pending(repo);
    if (!transfer) throw new NotFoundError("no pending transfer for this repository");
    const { recipient } = transfer;
    const allowed = mayCreateRepoFor(doer, recipient, await this.orgGrants(recipient, doer));
    if (!allowed) throw new PermissionDeniedError("user does not have permissions to do this");
    if (!accept) {
      await repoTransfers.deleteTransfer(this.ctx.db, repo.id);
      return;
    }
    // Forgejo's CheckQuota of the recipient, once it may accept.
    await this.quota.enforce(recipient, "size:repos:all");
    await this.transferOwnership(repo, recipient, transfer.teams);
  }

  /** Whether one of `doer`'s teams may create repositories in `owner` (false unless an organization). */
  private async orgGrants(owner: User, doer: User): Promise<boolean> {
    if (owner.type !== "organization") return false;
    return (await this.permissions.inOrganization(owner, doer)).permission.canCreateRepository;
  }

  private async resolveTeams(newOwner: User, teamIds: readonly number[] | undefined): Promise<Team[]> {
    if (teamIds === undefined) return [];
    if (newOwner.type !== "organization")
      throw new InvalidArgumentError("Teams can only be added to organization-owned repositories");
    const out: Team[] = [];
    for (const id of teamIds) {
      const team = await teamQueries.findTeamById(this.ctx.db, id);
      if (!team) throw new InvalidArgumentError(`team ${id} not found`);
      if (team.orgId !== newOwner.id)
        throw new PermissionDeniedError(`team ${id} belongs not to org ${newOwner.id}`);
      out.push(team);
    }
    return out;
  }

  /**
   * Moves the repository row and its usage to the new owner in one transaction, which also leaves
   * the old `owner/name` redirecting to it (Forgejo's NewRedirect) and journals the directory's
   * move; the directory moves after the commit.
   */
  private async transferOwnership(repo: Repository, newOwner: User, teams: readonly Team[]): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      if (await repositories.findRepositoryByName(trx, newOwner.id, locked.name)) {
        throw new InvalidArgumentError(
          `repository already exists [uname: ${newOwner.name}, name: ${locked.name}]`,
        );
      }
      const after = await repositories.updateRepository(trx, repo.id, {
        ownerId: newOwner.id,
        ownerName: newOwner.name,
      });
      if (!after) throw new NotFoundError();
      await this.ledger.recordRepositoryChange(trx, locked, after);
      await teamQueries.removeRepoFromAllTeams(trx, repo.id);
      for (const team of teams) await teamQueries.addTeamRepo(trx, team, repo.id);
      await collaborations.removeCollaborator(trx, repo.id, newOwner.id);
      await repoTransfers.deleteTransfer(trx, repo.id);
      await redirects.deleteRepoRedirect(trx, newOwner.id, locked.name);
      await redirects.setRepoRedirect(trx, locked.ownerId, locked.name, repo.id);
      await this.repos.moves.journal(
        trx,
        { owner: locked.ownerName, name: locked.name },
        { owner: newOwner.name, name: locked.name },
      );
    });
    await this.repos.moves.drain();
  }
}
