import {
  api,
  type Paged,
  type PageRequest,
  type Repository,
  type ScopeCategory,
  type User,
} from "@kiln/domain";
import { type Actor, accountSight, type RepoAccess, type Services, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { type AnyRoute, type ResponseDoc, route } from "../../route.js";
import { pagedRepos, repoParams } from "../repo/context.js";
import { notFound } from "../responses.js";

/** One Forgejo operation of a family: its path, operationId and summary. */
export interface MarkOperation {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
}

/**
 * A mark a user puts on a repository: a star or a watch. Forgejo's user/star.go and user/watch.go
 * list the marked repositories twice (the caller's, another user's); the operations are the same
 * for both marks.
 */
export interface MarkFamily {
  /** The caller's own list: private repositories too. */
  readonly mine: MarkOperation & {
    readonly scopes: readonly ScopeCategory[];
    readonly responses?: Readonly<Record<number, ResponseDoc>>;
  };
  /** Another user's list: only the public repositories the caller may see. */
  readonly theirs: MarkOperation;
  readonly marked: (
    services: Services,
    actor: Actor,
    user: User,
    page: PageRequest,
  ) => Promise<Paged<Repository>>;
}

const repoList = { description: "RepositoryList", schema: v.array(api.Repository) };
const userList = { description: "UserList", schema: v.array(api.User) };

/** The two lists of a user's marked repositories: the caller's own and another user's. */
export function markedRepoRoutes(family: MarkFamily): AnyRoute[] {
  return [
    route({
      ...family.mine,
      method: "get",
      tags: ["user"],
      access: "signed-in",
      query: v.object(pageQuery),
      responses: { 200: repoList, ...family.mine.responses },
      async handler(c, { query, principal }) {
        const { user } = requirePrincipal(principal);
        return pagedRepos(c, query, (page) => family.marked(c.get("services"), c.get("actor"), user, page));
      },
    }),
    route({
      ...family.theirs,
      method: "get",
      tags: ["user"],
      access: "public",
      scopes: ["user"],
      params: v.object({ username: v.pipe(v.string(), v.maxLength(255)) }),
      query: v.object(pageQuery),
      responses: { 200: repoList, ...notFound },
      async handler(c, { params, query }) {
        const services = c.get("services");
        const user = await services.access.account(c.get("actor"), params.username);
        return pagedRepos(c, query, (page) => family.marked(services, c.get("actor"), user, page));
      },
    }),
  ];
}

/**
 * Who marked a repository, as the accounts the caller may see: Forgejo's repo/star.go and
 * repo/subscriber.go answer the same way for stars and watches.
 */
export function markersRoute(
  operation: MarkOperation,
  markersOf: (services: Services, repo: RepoAccess, page: PageRequest) => Promise<Paged<User>>,
): AnyRoute {
  return route({
    ...operation,
    method: "get",
    tags: ["repository"],
    access: "public",
    repo: "read",
    scopes: ["repository"],
    params: v.object(repoParams),
    query: v.object(pageQuery),
    responses: { 200: userList, ...notFound },
    async handler(c, { query, repo }) {
      return pagedJson(
        c,
        query,
        (page) => markersOf(c.get("services"), repo, page),
        (u) => toApiUser(u, accountSight(c.get("actor").user), c.get("settings")),
      );
    },
  });
}
