import { BadRequestError, type Issue, type Paged, type PageRequest } from "@kiln/domain";
import { issueSearch, teams } from "@kiln/storage";
import type { AccessService } from "../access/access-service.js";
import { type Actor, viewerOf } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import { parseTime, stateOf } from "./issue-filters.js";

/** `GET /repos/issues/search`, in service terms. */
export interface IssueSearchQuery {
  readonly q?: string | undefined;
  readonly state?: string | undefined;
  readonly labels?: string | undefined;
  readonly milestones?: string | undefined;
  readonly type?: string | undefined;
  readonly since?: string | undefined;
  readonly before?: string | undefined;
  /** Issues assigned to, created by, or mentioning the caller (ignored when anonymous). */
  readonly assigned?: boolean | undefined;
  readonly created?: boolean | undefined;
  readonly mentioned?: boolean | undefined;
  readonly owner?: string | undefined;
  readonly team?: string | undefined;
}

const names = (value: string | undefined) =>
  value === undefined || value.trim() === "" ? [] : value.trim().split(",").slice(0, 50);

/**
 * Issues across every repository the caller may see (Forgejo's SearchIssues), filtered in SQL by
 * what the caller may read there (the issues unit for issues, the pull requests unit for pull
 * requests, as each repository's own list answers), so pages and totals only ever count what the
 * caller may see. Labels and milestones are matched by name in any repository or organization.
 */
export class IssueSearchService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
  ) {}

  async search(actor: Actor, query: IssueSearchQuery, page: PageRequest): Promise<Paged<Issue>> {
    const doer = actor.user;
    let ownerId: number | undefined;
    let repoIds: number[] | undefined;
    if (query.owner) {
      const owner = await this.access.account(actor, query.owner).catch(() => undefined);
      if (!owner) throw new BadRequestError(`user does not exist [uid: 0, name: ${query.owner}]`);
      ownerId = owner.id;
      if (query.team) {
        const team = await teams.findTeamByName(this.ctx.db, owner.id, query.team);
        if (!team)
          throw new BadRequestError(
            `team does not exist [org_id ${owner.id}, team_id 0, name: ${query.team}]`,
          );
        if (!team.includesAllRepositories) repoIds = [...(await teams.teamRepoIds(this.ctx.db, [team.id]))];
      }
    } else if (query.team) {
      throw new BadRequestError("Owner organisation is required for filtering on team");
    }
    const type = query.type === "issues" ? false : query.type === "pulls" ? true : undefined;
    return issueSearch.searchIssues(
      this.ctx.db,
      {
        visibleTo: { viewer: viewerOf(actor), ownerId },
        ...(repoIds ? { repoIds } : {}),
        state: stateOf(query.state),
        isPull: type,
        anyLabelNames: names(query.labels),
        milestoneNames: names(query.milestones),
        keyword: query.q?.trim() || undefined,
        updatedSince: parseTime(query.since),
        updatedBefore: parseTime(query.before),
        ...(doer && query.assigned ? { assigneeId: doer.id } : {}),
        ...(doer && query.created ? { posterId: doer.id } : {}),
        ...(doer && query.mentioned ? { mentionedId: doer.id } : {}),
      },
      "latest",
      page,
    );
  }
}
