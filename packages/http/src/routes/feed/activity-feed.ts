import type { Paged, PageRequest } from "@kiln/domain";
import { api } from "@kiln/domain";
import { accountSight, type FeedEntry, toApiActivity } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { apiRepos, repoParams } from "../repo/context.js";
import { notFound, validationError } from "../responses.js";

/**
 * Activity feeds: Forgejo's ListUserActivityFeeds (routers/api/v1/user/user.go),
 * ListOrgActivityFeeds and ListTeamActivityFeeds (org/org.go, org/team.go) and
 * ListRepoActivityFeeds (repo/repo.go), kept together as they share their filters and shape.
 */

/** `date`: a day, YYYY-MM-DD, in the server's time zone (422 for anything else). */
const date = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD"),
  v.metadata({
    swagger: { type: "string", format: "date" },
    description: "the date of the activities to be found",
  }),
);
const feedQuery = { date: v.optional(date), ...pageQuery };
const responses = {
  200: { description: "ActivityFeedsList", schema: v.array(api.Activity) },
  ...notFound,
  ...validationError,
};

/**
 * Feed entries as Forgejo's `Activity` list: each repository shaped once for the caller, with
 * their permission (one query for the page); an entry whose repository they cannot see is left out.
 */
async function apiActivities(c: AppContext, entries: readonly FeedEntry[]) {
  const settings = c.get("settings");
  const sight = accountSight(c.get("actor").user);
  const repos = [...new Map(entries.map((e) => [e.repo.id, e.repo])).values()];
  const repoJson = new Map((await apiRepos(c, repos)).map((json) => [json.id, json]));
  return entries.flatMap((entry) => {
    const json = repoJson.get(entry.repo.id);
    return json ? [toApiActivity(entry, json, sight, settings)] : [];
  });
}

async function answer(
  c: AppContext,
  query: { page?: string | undefined; limit?: string | undefined },
  load: (page: PageRequest) => Promise<Paged<FeedEntry>>,
): Promise<Response> {
  const page = pageRequest(query, c.get("settings").api);
  const list = await load(page);
  setPagingHeaders(c, page, list.total);
  return c.json(await apiActivities(c, list.items));
}

export const userListActivityFeeds = route({
  method: "get",
  path: "/users/{username}/activities/feeds",
  operationId: "userListActivityFeeds",
  tags: ["user"],
  summary: "List a user's activity feeds",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: qs.string("username of user") }),
  query: v.object({
    "only-performed-by": v.optional(qs.bool("if true, only show actions performed by the requested user")),
    ...feedQuery,
  }),
  responses,
  async handler(c, { params, query }) {
    const actor = c.get("actor");
    const services = c.get("services");
    const user = await services.access.account(actor, params.username);
    return answer(c, query, (page) =>
      services.feeds.ofUser(
        actor,
        user,
        { onlyPerformedBy: query["only-performed-by"], date: query.date },
        page,
      ),
    );
  },
});

export const orgListActivityFeeds = route({
  method: "get",
  path: "/orgs/{org}/activities/feeds",
  operationId: "orgListActivityFeeds",
  tags: ["organization"],
  summary: "List an organization's activity feeds",
  access: "public",
  org: "visible",
  scopes: ["organization"],
  params: v.object({ org: qs.string("name of the org") }),
  query: v.object(feedQuery),
  responses,
  async handler(c, { query, org: { org, isMember } }) {
    const actor = c.get("actor");
    return answer(c, query, (page) => c.get("services").feeds.ofOrg(actor, org, isMember, query, page));
  },
});

export const orgListTeamActivityFeeds = route({
  method: "get",
  path: "/teams/{id}/activities/feeds",
  operationId: "orgListTeamActivityFeeds",
  tags: ["organization"],
  summary: "List a team's activity feeds",
  access: "signed-in",
  scopes: ["organization"],
  params: v.object({ id: qs.int("id of the team") }),
  query: v.object(feedQuery),
  responses,
  async handler(c, { params, query }) {
    const actor = c.get("actor");
    const { team } = await c.get("services").access.team(actor, params.id);
    return answer(c, query, (page) => c.get("services").feeds.ofTeam(actor, team, query, page));
  },
});

export const repoListActivityFeeds = route({
  method: "get",
  path: "/repos/{owner}/{repo}/activities/feeds",
  operationId: "repoListActivityFeeds",
  tags: ["repository"],
  summary: "List a repository's activity feeds",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(feedQuery),
  responses,
  async handler(c, { query, repo: access }) {
    const actor = c.get("actor");
    return answer(c, query, (page) => c.get("services").feeds.ofRepo(actor, access, query, page));
  },
});

export const activityFeedRoutes = [
  userListActivityFeeds,
  orgListActivityFeeds,
  orgListTeamActivityFeeds,
  repoListActivityFeeds,
];
