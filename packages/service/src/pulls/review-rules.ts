import {
  type AccessMode,
  atLeast,
  InvalidArgumentError,
  type Issue,
  type Repository,
  type RepoUnit,
  ReviewType,
  type ReviewTypeValue,
  type Team,
  type User,
} from "@kiln/domain";
import { collaborations, teams } from "@kiln/storage";
import type { PermissionService } from "../access/permission-service.js";
import { writesCode } from "../access/pull-rules.js";
import type { RepoPermission } from "../access/repo-permission.js";
import type { ServiceContext } from "../context.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";

/**
 * The type a review event asks for, checked as Forgejo's preparePullReviewType: the poster may
 * neither approve nor reject their own pull request, a request for changes needs a body, a
 * comment a body or a line comment; any other event is a pending review, which needs a body.
 * All refusals are 422 with Forgejo's messages.
 */
export function reviewTypeOf(
  event: string,
  body: string,
  hasComments: boolean,
  isPoster: boolean,
): ReviewTypeValue {
  const hasBody = body.trim() !== "";
  let type: ReviewTypeValue;
  let needsBody = true;
  switch (event) {
    case "APPROVED":
      if (isPoster) throw new InvalidArgumentError("approve your own pull is not allowed");
      type = ReviewType.approve;
      needsBody = false;
      break;
    case "REQUEST_CHANGES":
      if (isPoster) throw new InvalidArgumentError("reject your own pull is not allowed");
      type = ReviewType.requestChanges;
      break;
    case "COMMENT":
      type = ReviewType.comment;
      needsBody = false;
      if (!hasBody && !hasComments) {
        throw new InvalidArgumentError(`review event ${event} requires a body or a comment`);
      }
      break;
    default:
      type = ReviewType.pending;
  }
  if (needsBody && !hasBody) throw new InvalidArgumentError(`review event ${event} requires a body`);
  return type;
}

/** Whether a review of this type decides a merge (and so may be official, superseded or dismissed). */
export function isDecision(type: ReviewTypeValue): boolean {
  return type === ReviewType.approve || type === ReviewType.requestChanges;
}

/** A team's mode on a unit of the repositories it covers. */
function teamMode(team: Team, unit: RepoUnit): AccessMode {
  return atLeast(team.accessMode, "admin") ? team.accessMode : (team.units[unit] ?? "none");
}

/**
 * Who counts for merges and who may ask for reviews (Forgejo's IsOfficialReviewer,
 * IsOfficialReviewerTeam and CanDoerChangeReviewRequests), for a pull request into `baseBranch`.
 */
export class ReviewerRules {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly protections: BranchProtectionService,
  ) {}

  /**
   * Whether the user's reviews count towards approvals: with no protection rule, write access to
   * the code; with one, write access to the code, or the approvals whitelist when it has one.
   */
  async isOfficial(
    repo: Repository,
    baseBranch: string,
    user: User,
    known?: { readonly owner: User; readonly permission: RepoPermission },
  ): Promise<boolean> {
    const rule = await this.protections.ruleFor(repo, baseBranch);
    if (!rule?.settings.enableApprovalsWhitelist) {
      const permission = known?.permission ?? (await this.permissions.forRepository(user, repo));
      return writesCode({ permission });
    }
    const s = rule.settings;
    if (s.approvalsWhitelistUserIds.includes(user.id)) return true;
    const facts = await this.protections.pusherFacts(repo, user, known, [rule]);
    return s.approvalsWhitelistTeamIds.some((id) => facts.teamIds.has(id));
  }

  /** Whether a team's review counts: only under a rule, by write access to the code or its whitelist. */
  async isOfficialTeam(repo: Repository, baseBranch: string, team: Team): Promise<boolean> {
    const rule = await this.protections.ruleFor(repo, baseBranch);
    if (!rule) return false;
    if (!rule.settings.enableApprovalsWhitelist) return atLeast(teamMode(team, "repo.code"), "write");
    return rule.settings.approvalsWhitelistTeamIds.includes(team.id);
  }

  /** Whether the team may read the repository: a public one, or one it covers. */
  async teamCovers(repo: Repository, team: Team): Promise<boolean> {
    if (team.includesAllRepositories) return true;
    return (await teams.teamRepoIds(this.ctx.db, [team.id], repo.id)).has(repo.id);
  }

  /**
   * Whether the doer may ask anyone for a review or withdraw a request: the pull request's
   * poster, the repository's owner, its collaborators, and members of the owning organization's
   * teams that cover the repository with its pull requests.
   */
  async mayChangeRequests(repo: Repository, owner: User, issue: Issue, doer: User): Promise<boolean> {
    if (doer.id === issue.posterId || doer.id === repo.ownerId) return true;
    if ((await collaborations.findCollaboratorMode(this.ctx.db, repo.id, doer.id)) !== undefined) return true;
    if (owner.type !== "organization") return false;
    for (const team of await teams.teamsOfMember(this.ctx.db, owner.id, doer.id)) {
      if (atLeast(teamMode(team, "repo.pulls"), "read") && (await this.teamCovers(repo, team))) return true;
    }
    return false;
  }
}
