import {
  AlreadyExistsError,
  atLeast,
  BadRequestError,
  InvalidArgumentError,
  LockedError,
  NotFoundError,
  PermissionDeniedError,
  type ProtectedBranch,
  type ProtectedBranchSettings,
  type Repository,
  type User,
} from "@kiln/domain";
import { filePatternsProblem, findBranchRule, MAX_RULE_NAME_LENGTH } from "@kiln/git";
import { isUniqueViolation, protectedBranches, teams, users } from "@kiln/storage";
import { mayBeWhitelisted } from "../access/branch-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import { writesCode } from "../access/pull-rules.js";
import type { RepoPermission } from "../access/repo-permission.js";
import type { ServiceContext } from "../context.js";
import {
  type BranchProtectionOptions,
  type PusherFacts,
  type ResolvedWhitelists,
  settingsForCreate,
  settingsForEdit,
} from "./protection-rules.js";

/** A create or edit request: the options plus whitelists by user and team name (absent = unset). */
export interface BranchProtectionInput extends BranchProtectionOptions {
  readonly pushWhitelistUsernames?: readonly string[];
  readonly pushWhitelistTeams?: readonly string[];
  readonly mergeWhitelistUsernames?: readonly string[];
  readonly mergeWhitelistTeams?: readonly string[];
  readonly approvalsWhitelistUsernames?: readonly string[];
  readonly approvalsWhitelistTeams?: readonly string[];
}

/** A rule with its whitelists by name, as the API shows it. */
export interface BranchProtectionView {
  readonly rule: ProtectedBranch;
  readonly pushUsers: readonly string[];
  readonly pushTeams: readonly string[];
  readonly mergeUsers: readonly string[];
  readonly mergeTeams: readonly string[];
  readonly approvalsUsers: readonly string[];
  readonly approvalsTeams: readonly string[];
}

type Need = "read" | "write";

/**
 * Branch protection rules (Forgejo's `ProtectedBranch`): users and teams are named in requests
 * and answers but stored by id; whitelisted users and teams without write access to the code are
 * dropped, as Forgejo does. Also answers, for the API and the git transport, which rule covers a
 * branch and what a given user is to it.
 */
export class BranchProtectionService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
  ) {}

  /** The repository's rules by priority. */
  async list(repo: Repository): Promise<ProtectedBranch[]> {
    return protectedBranches.listProtectedBranches(this.ctx.db, repo.id);
  }

  /** The rules, possibly as cached a moment ago: for showing them, never for enforcing them. */
  async listForDisplay(repo: Repository): Promise<readonly ProtectedBranch[]> {
    return protectedBranches.listProtectedBranchesForDisplay(this.ctx.db, repo.id);
  }

  /** The rules with their whitelists by name. */
  async listViews(repo: Repository): Promise<BranchProtectionView[]> {
    return Promise.all((await this.list(repo)).map((rule) => this.view(repo, rule)));
  }

  /** The rule with exactly this name; NotFoundError when there is none. */
  async get(repo: Repository, ruleName: string): Promise<BranchProtectionView> {
    return this.view(repo, await this.find(repo, ruleName));
  }

  /** The rule that covers `branch` (exact names before globs, then by priority), if any. */
  async ruleFor(repo: Repository, branch: string): Promise<ProtectedBranch | undefined> {
    return findBranchRule(await this.list(repo), branch);
  }

  /** Creates a rule. Forgejo answers an existing name with 403 and an empty one with 400. */
  async create(
    repo: Repository,
    ruleName: string,
    input: BranchProtectionInput,
  ): Promise<BranchProtectionView> {
    assertNotArchived(repo);
    if (ruleName === "") throw new BadRequestError("both rule_name and branch_name are empty");
    if (ruleName.length > MAX_RULE_NAME_LENGTH) {
      throw new InvalidArgumentError(
        `rule_name: a rule name may have at most ${MAX_RULE_NAME_LENGTH} characters`,
      );
    }
    checkFilePatterns(input);
    if (await protectedBranches.findProtectedBranch(this.ctx.db, repo.id, ruleName)) {
      throw new PermissionDeniedError("Branch protection already exist");
    }
    const settings = settingsForCreate(input, await this.resolveWhitelists(repo, input));
    try {
      const rule = await protectedBranches.insertProtectedBranch(this.ctx.db, repo.id, ruleName, settings);
      return this.view(repo, rule);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError("Branch protection already exist");
      throw err;
    }
  }

  /** Changes the fields of a rule that are set in `input`. */
  async edit(
    repo: Repository,
    ruleName: string,
    input: BranchProtectionInput,
  ): Promise<BranchProtectionView> {
    assertNotArchived(repo);
    checkFilePatterns(input);
    const rule = await this.find(repo, ruleName);
    const settings = settingsForEdit(rule.settings, input, await this.resolveWhitelists(repo, input));
    const updated = await protectedBranches.updateProtectedBranch(this.ctx.db, rule.id, settings);
    if (!updated) throw new NotFoundError();
    return this.view(repo, updated);
  }

  /** Deletes a rule; NotFoundError when there is none of that name. */
  async delete(repo: Repository, ruleName: string): Promise<void> {
    if (!(await protectedBranches.deleteProtectedBranch(this.ctx.db, repo.id, ruleName))) {
      throw new NotFoundError();
    }
  }

  /**
   * What `user` is to the repository's rules: write access and team memberships. The owner and
   * permission the request already resolved are reused when given; team memberships are looked
   * up only when one of `rules` (all rules when absent) whitelists a team.
   */
  async pusherFacts(
    repo: Repository,
    user: User,
    known?: { readonly owner: User; readonly permission: RepoPermission },
    rules?: readonly ProtectedBranch[],
  ): Promise<PusherFacts> {
    const permission = known?.permission ?? (await this.permissions.forRepository(user, repo));
    const owner = known?.owner ?? (await users.findUserById(this.ctx.db, repo.ownerId));
    const needsTeams = owner?.type === "organization" && (rules === undefined || rules.some(whitelistsTeams));
    const teamIds =
      owner && needsTeams
        ? new Set((await this.permissions.inOrganization(owner, user)).teams.map((t) => t.id))
        : new Set<number>();
    return { userId: user.id, canWriteCode: writesCode({ permission }), teamIds };
  }

  private async find(repo: Repository, ruleName: string): Promise<ProtectedBranch> {
    const rule = await protectedBranches.findProtectedBranch(this.ctx.db, repo.id, ruleName);
    if (!rule) throw new NotFoundError();
    return rule;
  }

  private async view(repo: Repository, rule: ProtectedBranch): Promise<BranchProtectionView> {
    const s: ProtectedBranchSettings = rule.settings;
    const orgOwned = await this.isOrgOwned(repo);
    return {
      rule,
      pushUsers: await this.userNames(s.whitelistUserIds),
      pushTeams: orgOwned ? await this.teamNames(s.whitelistTeamIds) : [],
      mergeUsers: await this.userNames(s.mergeWhitelistUserIds),
      mergeTeams: orgOwned ? await this.teamNames(s.mergeWhitelistTeamIds) : [],
      approvalsUsers: await this.userNames(s.approvalsWhitelistUserIds),
      approvalsTeams: orgOwned ? await this.teamNames(s.approvalsWhitelistTeamIds) : [],
    };
  }

  private async isOrgOwned(repo: Repository): Promise<boolean> {
    return (await users.findUserById(this.ctx.db, repo.ownerId))?.type === "organization";
  }

  private async userNames(ids: readonly number[]): Promise<string[]> {
    const found = new Map((await users.findUsersByIds(this.ctx.db, ids)).map((u) => [u.id, u.name]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  private async teamNames(ids: readonly number[]): Promise<string[]> {
    const names: string[] = [];
    for (const id of ids) {
      const team = await teams.findTeamById(this.ctx.db, id);
      if (team) names.push(team.name);
    }
    return names;
  }

  private async resolveWhitelists(
    repo: Repository,
    input: BranchProtectionInput,
  ): Promise<ResolvedWhitelists> {
    const orgOwned = await this.isOrgOwned(repo);
    const teamIds = async (names: readonly string[] | undefined) =>
      names === undefined ? undefined : orgOwned ? this.teamIds(repo, names) : [];
    const pushUserIds = await this.userIds(repo, input.pushWhitelistUsernames, "write");
    // Merging needs no write access for a whitelisted user (API rule 6, docs/decisions.md), so readers stay on
    // the merge whitelist where Forgejo would drop them.
    const mergeUserIds = await this.userIds(repo, input.mergeWhitelistUsernames, "read");
    const approvalsUserIds = await this.userIds(repo, input.approvalsWhitelistUsernames, "read");
    const pushTeamIds = await teamIds(input.pushWhitelistTeams);
    const mergeTeamIds = await teamIds(input.mergeWhitelistTeams);
    const approvalsTeamIds = await teamIds(input.approvalsWhitelistTeams);
    return {
      ...(pushUserIds ? { pushUserIds } : {}),
      ...(mergeUserIds ? { mergeUserIds } : {}),
      ...(approvalsUserIds ? { approvalsUserIds } : {}),
      ...(pushTeamIds ? { pushTeamIds } : {}),
      ...(mergeTeamIds ? { mergeTeamIds } : {}),
      ...(approvalsTeamIds ? { approvalsTeamIds } : {}),
    };
  }

  /** Ids of the named users that have `need` access to the code; 422 for a name nobody has. */
  private async userIds(
    repo: Repository,
    names: readonly string[] | undefined,
    need: Need,
  ): Promise<number[] | undefined> {
    if (names === undefined) return undefined;
    const ids: number[] = [];
    for (const name of names) {
      const user = await users.findUserByName(this.ctx.db, name);
      if (!user) throw new InvalidArgumentError(`user does not exist [name: ${name}]`);
      const permission = await this.permissions.forRepository(user, repo);
      if (mayBeWhitelisted(permission, need) && !ids.includes(user.id)) ids.push(user.id);
    }
    return ids;
  }

  /** Ids of the named teams of the owning organization with write access to this repository. */
  private async teamIds(repo: Repository, names: readonly string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      const team = await teams.findTeamByName(this.ctx.db, repo.ownerId, name);
      if (!team) throw new InvalidArgumentError(`team does not exist [name: ${name}]`);
      const covers =
        team.includesAllRepositories ||
        (await teams.teamRepoIds(this.ctx.db, [team.id], repo.id)).has(repo.id);
      const writes = atLeast(team.accessMode, "write") || atLeast(team.units["repo.code"] ?? "none", "write");
      if (covers && writes && !ids.includes(team.id)) ids.push(team.id);
    }
    return ids;
  }
}

/** Forgejo's mustNotBeArchived: changes to an archived repository are refused with 423. */
export function assertNotArchived(repo: Repository): void {
  if (repo.isArchived) throw new LockedError("repo is archived");
}

/**
 * 422 naming the limit when a file pattern list has too many globs or too long a glob: every
 * write to a protected branch matches every pattern, so the lists are bounded.
 */
function checkFilePatterns(input: BranchProtectionOptions): void {
  for (const [field, list] of [
    ["protected_file_patterns", input.protectedFilePatterns],
    ["unprotected_file_patterns", input.unprotectedFilePatterns],
  ] as const) {
    const problem = filePatternsProblem(list);
    if (problem) throw new InvalidArgumentError(`${field}: ${problem}`);
  }
}

/** Whether a rule names any team (so the pusher's team memberships matter to it). */
function whitelistsTeams(rule: ProtectedBranch): boolean {
  const s = rule.settings;
  return s.whitelistTeamIds.length + s.mergeWhitelistTeamIds.length + s.approvalsWhitelistTeamIds.length > 0;
}
