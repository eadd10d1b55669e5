import { api, NotFoundError } from "@kiln/domain";
import { accountSight, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/org/team.go, a team's members: list, look up, add and remove. */

const teamParam = v.object({ id: qs.int("id of the team") });

export const orgListTeamMembers = route({
  method: "get",
  path: "/teams/{id}/members",
  operationId: "orgListTeamMembers",
  tags: ["organization"],
  summary: "List a team's members",
  access: "signed-in",
  scopes: ["organization"],
  params: teamParam,
  query: v.object(pageQuery),
  responses: {
    200: { description: "UserList", schema: v.array(api.User) },
    ...notFound,
  },
  async handler(c, { params, query, principal }) {
    const { user } = requirePrincipal(principal);
    const { team } = await c.get("services").access.team(c.get("actor"), params.id);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").teams.members(team, page),
      (u) => toApiUser(u, accountSight(user), c.get("settings")),
    );
  },
});

const teamUser = v.object({ id: qs.int("id of the team"), username: v.string() });

export const orgListTeamMember = route({
  method: "get",
  path: "/teams/{id}/members/{username}",
  operationId: "orgListTeamMember",
  tags: ["organization"],
  summary: "List a particular member of team",
  access: "signed-in",
  scopes: ["organization"],
  params: teamUser,
  responses: {
    200: { description: "User", schema: api.User },
    ...notFound,
  },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const { team } = await c.get("services").access.team(c.get("actor"), params.id);
    const target = await c.get("services").access.account(c.get("actor"), params.username);
    if (!(await c.get("services").teams.isMember(team, target))) throw new NotFoundError();
    return c.json(toApiUser(target, accountSight(user), c.get("settings")));
  },
});

function membership(method: "put" | "delete", operationId: string, summary: string) {
  return route({
    method,
    path: "/teams/{id}/members/{username}",
    operationId,
    tags: ["organization"],
    summary,
    access: "signed-in",
    scopes: ["organization"],
    params: teamUser,
    responses: {
      204: { description: "membership changed", schema: "empty" },
      ...forbidden,
      ...notFound,
      ...validationError,
    },
    async handler(c, { params, principal }) {
      const { user } = requirePrincipal(principal);
      const { team } = await c.get("services").access.team(c.get("actor"), params.id, "owner");
      const target = await c.get("services").access.account(c.get("actor"), params.username);
      if (method === "put") await c.get("services").teams.addMember(team, target, user);
      else await c.get("services").teams.removeMember(team, target);
      return c.body(null, 204);
    },
  });
}

export const orgAddTeamMember = membership("put", "orgAddTeamMember", "Add a team member");
export const orgRemoveTeamMember = membership("delete", "orgRemoveTeamMember", "Remove a team member");
