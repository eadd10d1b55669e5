import type { Comment, Paged, PageRequest, Repository, Team, User } from "@kiln/domain";
import {
  type ActionRow,
  actions,
  type FeedFilter,
  type HeatmapBucket,
  repositories,
  users,
} from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { isSelfOrAdmin } from "../access/account-rules.js";
import { type Actor, viewerOf } from "../access/actor.js";
import { seesOrgInside } from "../access/org-permission.js";
import type { ServiceContext } from "../context.js";
import type { CommentView } from "../issues/comment-service.js";

/** `only-performed-by` and `date` (YYYY-MM-DD in the server's time zone) of the feed routes. */
export interface FeedQuery {
  readonly onlyPerformedBy?: boolean | undefined;
  readonly date?: string | undefined;
}

/** A feed entry with what its API shape shows: actor, repository and comment. */
export interface FeedEntry {
  readonly action: ActionRow;
  /** Forgejo's name of the entry's type (`create_repo`, `commit_repo`, …; its API's `op_type`). */
  readonly kind: string;
  readonly actUser: User | null;
  readonly repo: Repository;
  readonly comment: CommentView | null;
}

/**
 * Activity feeds (Forgejo's GetFeeds behind routers/api/v1 ListUserActivityFeeds,
 * ListOrgActivityFeeds, ListTeamActivityFeeds and ListRepoActivityFeeds): entries of repositories
 * the viewer may see only, private ones only where Forgejo includes them.
 */
export class FeedService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * A user's feed: what they did and what happened where they watch. Entries of private
   * repositories only for the user and site admins; nothing of a user who hides their activity,
   * except to themselves and site admins.
   */
  async ofUser(actor: Actor, user: User, query: FeedQuery, page: PageRequest): Promise<Paged<FeedEntry>> {
    const self = isSelfOrAdmin(actor.user, user);
    if (user.hideActivity && !self) return { items: [], total: 0 };
    return this.list(
      actor,
      {
        userId: user.id,
        onlyPerformedBy: query.onlyPerformedBy,
        includePrivate: self,
        window: dayOf(query.date),
      },
      page,
    );
  }

  /**
   * Forgejo's heatmap of the last year, per quarter hour: what an individual did, or what happened
   * in an organization's repositories; empty when the account hides its activity from the caller.
   * Only entries of repositories the caller may see count.
   */
  async heatmap(actor: Actor, user: User): Promise<HeatmapBucket[]> {
    const self = isSelfOrAdmin(actor.user, user);
    if (user.hideActivity && !self) return [];
    const yearAgo = new Date(Date.now() - 365 * 24 * 3600 * 1000);
    const individual = user.type !== "organization";
    return actions.heatmap(
      this.ctx.db,
      { userId: user.id, onlyPerformedBy: individual, includePrivate: true },
      viewerOf(actor),
      yearAgo,
    );
  }

  /** An organization's feed; its private repositories' entries for members and site admins. */
  async ofOrg(actor: Actor, org: User, isMember: boolean, query: FeedQuery, page: PageRequest) {
    const includePrivate = seesOrgInside(actor.user, isMember);
    return this.list(actor, { userId: org.id, includePrivate, window: dayOf(query.date) }, page);
  }

  /** A team's feed: its organization's entries of the team's repositories. */
  async ofTeam(actor: Actor, team: Team, query: FeedQuery, page: PageRequest) {
    return this.list(
      actor,
      {
        userId: team.orgId,
        team: { id: team.id, orgId: team.orgId, all: team.includesAllRepositories },
        includePrivate: true,
        window: dayOf(query.date),
      },
      page,
    );
  }

  /** A repository's feed: its entries as their actors recorded them. */
  async ofRepo(actor: Actor, access: RepoAccess, query: FeedQuery, page: PageRequest) {
    return this.list(
      actor,
      { repoId: access.repo.id, includePrivate: true, window: dayOf(query.date) },
      page,
    );
  }

  private async list(actor: Actor, filter: FeedFilter, page: PageRequest): Promise<Paged<FeedEntry>> {
    const db = this.ctx.db;
    const found = await actions.listFeed(db, filter, viewerOf(actor), page);
    const rows = found.items;
    const actorIds = [...new Set(rows.flatMap((a) => (a.actUserId === null ? [] : [Number(a.actUserId)])))];
    const repoIds = [...new Set(rows.flatMap((a) => (a.repoId === null ? [] : [Number(a.repoId)])))];
    const commentIds = [...new Set(rows.flatMap((a) => (a.commentId === null ? [] : [Number(a.commentId)])))];
    const [actors, repos, comments] = await Promise.all([
      users.findUsersByIds(db, actorIds),
      Promise.all(repoIds.map((id) => repositories.findRepositoryById(db, id))),
      actions.feedComments(db, commentIds),
    ]);
    const actorById = new Map(actors.map((u) => [u.id, u]));
    const repoById = new Map(repos.flatMap((r) => (r ? [[r.id, r] as const] : [])));
    const commentById = new Map(
      comments.map(({ issueIndex, isPull, ...comment }) => [
        Number(comment.id),
        { comment: comment as unknown as Comment, issueIndex: Number(issueIndex), isPull },
      ]),
    );
    const items = rows.flatMap((action) => {
      const repo = repoById.get(Number(action.repoId));
      if (!repo) return [];
      return [
        {
          action,
          kind: actions.actionTypeName(action.opType),
          actUser: actorById.get(Number(action.actUserId)) ?? null,
          repo,
          comment: action.commentId === null ? null : (commentById.get(Number(action.commentId)) ?? null),
        },
      ];
    });
    return { items, total: found.total };
  }
}

/** The day `YYYY-MM-DD` in the server's time zone, as Forgejo's DefaultUILocation; anything else filters nothing (Forgejo logs and ignores it). */
export function dayOf(date: string | undefined): FeedFilter["window"] {
  const m = date === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const from = new Date(y, mo - 1, d);
  if (from.getFullYear() !== y || from.getMonth() !== mo - 1 || from.getDate() !== d) return undefined;
  return { from, to: new Date(y, mo - 1, d + 1) };
}
