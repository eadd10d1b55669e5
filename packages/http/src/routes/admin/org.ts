import { api, InvalidArgumentError } from "@kiln/domain";
import { seeAllViewer } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { apiOrg } from "../org/access.js";
import { forbidden, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/admin/org.go: every organization, and creating one for a user. */

export const adminGetAllOrgs = route({
  method: "get",
  path: "/admin/orgs",
  operationId: "adminGetAllOrgs",
  tags: ["admin"],
  summary: "List all organizations",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object(pageQuery),
  responses: { 200: { description: "OrganizationList", schema: v.array(api.Organization) }, ...forbidden },
  async handler(c, { query, principal }) {
    const admin = requirePrincipal(principal).user;
    const viewer = seeAllViewer(admin.id);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").orgs.listVisible(viewer, page),
      (o) => apiOrg(c, o),
    );
  },
});

export const adminCreateOrg = route({
  method: "post",
  path: "/admin/users/{username}/orgs",
  operationId: "adminCreateOrg",
  tags: ["admin"],
  summary: "Create an organization",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ username: v.string() }),
  body: api.CreateOrgOption,
  responses: {
    201: { description: "Organization", schema: api.Organization },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body }) {
    const owner = await c.get("services").users.getByName(params.username);
    if (owner.type !== "individual")
      throw new InvalidArgumentError(`${owner.name} is an organization not a user`);
    const org = await c.get("services").orgs.create(owner, body.username, {
      fullName: body.full_name,
      email: body.email,
      description: body.description,
      website: body.website,
      location: body.location,
      visibility: body.visibility,
      repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
    });
    return c.json(await apiOrg(c, org), 201);
  },
});

export const adminOrgRoutes = [adminGetAllOrgs, adminCreateOrg];
