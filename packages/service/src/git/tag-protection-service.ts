import {
  BadRequestError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import { compileTagPattern, mayControlTag, TagPatternError, type TagRulePolicy } from "@kiln/git";
import { type ProtectedTag, protectedTags, teams, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { assertNotArchived } from "./branch-protection-service.js";

/** A create or edit request: allowlists by user and team name (absent = unchanged on edit). */
export interface TagProtectionInput {
  readonly namePattern?: string;
  readonly whitelistUsernames?: readonly string[];
  readonly whitelistTeams?: readonly string[];
}

/** A rule with its allowlists by name, as the API shows it. */
export interface TagProtectionView {
  readonly rule: ProtectedTag;
  readonly users: readonly string[];
  readonly teams: readonly string[];
}

/**
 * Tag protection rules (Forgejo's `ProtectedTag`, routers/api/v1/repo/tag.go): users and teams are
 * named in requests and answers and stored by id. Also answers, for the tag and release APIs and
 * the git transport, whether a user may create, move or delete a tag (`IsUserAllowedToControlTag`).
 */
export class TagProtectionService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The repository's rules, oldest first. */
  async list(repo: Repository): Promise<TagProtectionView[]> {
    const rules = await protectedTags.listProtectedTags(this.ctx.db, repo.id);
    return Promise.all(rules.map((rule) => this.view(rule)));
  }

  /** One rule of the repository; NotFoundError for an id of another repository or none. */
  async get(repo: Repository, id: number): Promise<TagProtectionView> {
    return this.view(await this.find(repo, id));
  }

  /**
   * Creates a rule with Forgejo's answers: 400 for an empty pattern or two empty allowlists, 403
   * when the pattern exists, 422 for a pattern Kiln cannot use or a user or team that does not exist.
   */
  async create(repo: Repository, input: TagProtectionInput): Promise<TagProtectionView> {
    assertNotArchived(repo);
    const namePattern = (input.namePattern ?? "").trim();
    if (namePattern === "") throw new BadRequestError("name_pattern are empty");
    if ((input.whitelistUsernames ?? []).length === 0 && (input.whitelistTeams ?? []).length === 0) {
      throw new BadRequestError("both whitelist_usernames and whitelist_teams are empty");
    }
    checkPattern(namePattern);
    if (await protectedTags.findProtectedTagByPattern(this.ctx.db, repo.id, namePattern)) {
      throw new PermissionDeniedError("Tag protection already exist");
    }
    const rule = await protectedTags.insertProtectedTag(this.ctx.db, repo.id, {
      namePattern,
      allowlistUserIds: await this.userIds(input.whitelistUsernames ?? []),
      allowlistTeamIds: await this.teamIds(repo, input.whitelistTeams ?? []),
    });
    return this.view(rule);
  }

  /** Changes what `input` sets; the allowlists given replace the stored ones. */
  async edit(repo: Repository, id: number, input: TagProtectionInput): Promise<TagProtectionView> {
    assertNotArchived(repo);
    const rule = await this.find(repo, id);
    const namePattern = input.namePattern === undefined ? rule.namePattern : input.namePattern.trim();
    if (input.namePattern !== undefined) checkPattern(namePattern);
    const updated = await protectedTags.updateProtectedTag(this.ctx.db, repo.id, id, {
      namePattern,
      allowlistUserIds:
        input.whitelistUsernames === undefined
          ? rule.allowlistUserIds
          : await this.userIds(input.whitelistUsernames),
      allowlistTeamIds:
        input.whitelistTeams === undefined
          ? rule.allowlistTeamIds
          : await this.teamIds(repo, input.whitelistTeams),
    });
    if (!updated) throw new NotFoundError();
    return this.view(updated);
  }

  /** Deletes a rule; NotFoundError when the repository has none with that id. */
  async delete(repo: Repository, id: number): Promise<void> {
    if (!(await protectedTags.deleteProtectedTag(this.ctx.db, repo.id, id))) throw new NotFoundError();
  }

  /** Each rule with whether `user` is on its allowlists: what the pre-receive hook gets. */
  async forUser(repo: Repository, user: User): Promise<TagRulePolicy[]> {
    const rules = await protectedTags.listProtectedTags(this.ctx.db, repo.id);
    if (rules.length === 0) return [];
    const needsTeams = rules.some((rule) => rule.allowlistTeamIds.length > 0);
    const mine = needsTeams
      ? new Set((await teams.teamsOfMember(this.ctx.db, repo.ownerId, user.id)).map((t) => t.id))
      : new Set<number>();
    return rules.map((rule) => ({
      pattern: rule.namePattern,
      allowed: rule.allowlistUserIds.includes(user.id) || rule.allowlistTeamIds.some((id) => mine.has(id)),
    }));
  }

  /**
   * Refuses, as Forgejo's tag and release APIs do (422 with `message`), a change to a tag that a
   * rule protects from `user`.
   */
  async assertMayControl(repo: Repository, user: User, tag: string, message: string): Promise<void> {
    if (!mayControlTag(await this.forUser(repo, user), tag)) throw new InvalidArgumentError(message);
  }

  private async find(repo: Repository, id: number): Promise<ProtectedTag> {
    const rule = await protectedTags.findProtectedTag(this.ctx.db, repo.id, id);
    if (!rule) throw new NotFoundError();
    return rule;
  }

  private async view(rule: ProtectedTag): Promise<TagProtectionView> {
    const found = new Map(
      (await users.findUsersByIds(this.ctx.db, rule.allowlistUserIds)).map((u) => [u.id, u.name]),
    );
    const teamNames: string[] = [];
    for (const id of rule.allowlistTeamIds) {
      const team = await teams.findTeamById(this.ctx.db, id);
      if (team) teamNames.push(team.name);
    }
    return { rule, users: rule.allowlistUserIds.flatMap((id) => found.get(id) ?? []), teams: teamNames };
  }

  /** Ids of the named users; 422 for a name nobody has (Forgejo's GetUserIDsByNames). */
  private async userIds(names: readonly string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      const user = await users.findUserByName(this.ctx.db, name);
      if (user?.type !== "individual") throw new InvalidArgumentError(`user does not exist [name: ${name}]`);
      if (!ids.includes(user.id)) ids.push(user.id);
    }
    return ids;
  }

  /** Ids of the named teams of the owning organization; none for a user's repository, as Forgejo. */
  private async teamIds(repo: Repository, names: readonly string[]): Promise<number[]> {
    const owner = await users.findUserById(this.ctx.db, repo.ownerId);
    if (owner?.type !== "organization") return [];
    const ids: number[] = [];
    for (const name of names) {
      const team = await teams.findTeamByName(this.ctx.db, repo.ownerId, name);
      if (!team) throw new InvalidArgumentError(`team does not exist [name: ${name}]`);
      if (!ids.includes(team.id)) ids.push(team.id);
    }
    return ids;
  }
}

/** 422 for a pattern Kiln cannot match (Forgejo's `/regex/` form among them). */
function checkPattern(pattern: string): void {
  try {
    compileTagPattern(pattern);
  } catch (err) {
    if (err instanceof TagPatternError)
      throw new InvalidArgumentError(`invalid name_pattern: ${err.message}`);
    throw err;
  }
}
