import { api } from "@kiln/domain";
import { type ApplicationInput, toApiOAuth2Application } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/**
 * Forgejo's routers/api/v1/user/app.go, its OAuth2 half: the signed-in user's OAuth2 applications
 * (`/user/applications/oauth2`, reqToken, the `user` scope). Off with `[oauth2] ENABLED = false`.
 */

const idParams = v.object({ id: qs.int("id of the application") });
const enabled = (s: { oauth2: { enabled: boolean } }) => s.oauth2.enabled;

function input(body: v.InferOutput<typeof api.CreateOAuth2ApplicationOptions>): ApplicationInput {
  return {
    name: body.name,
    confidentialClient: body.confidential_client ?? false,
    redirectUris: body.redirect_uris,
  };
}

export const userGetOAuth2Applications = route({
  method: "get",
  path: "/user/applications/oauth2",
  operationId: "userGetOAuth2Applications",
  tags: ["user"],
  summary: "List the authenticated user's oauth2 applications",
  access: "signed-in",
  scopes: ["user"],
  enabled,
  query: v.object(pageQuery),
  responses: {
    200: { description: "OAuth2ApplicationList", schema: v.array(api.OAuth2Application) },
    ...forbidden,
  },
  handler(c, { query, principal }) {
    const user = requirePrincipal(principal).user;
    return pagedJson(
      c,
      query,
      (page) => c.get("services").oauth2Applications.list(user, page),
      (app) => toApiOAuth2Application(app),
    );
  },
});

export const userCreateOAuth2Application = route({
  method: "post",
  path: "/user/applications/oauth2",
  operationId: "userCreateOAuth2Application",
  tags: ["user"],
  summary: "Creates a new OAuth2 application",
  access: "signed-in",
  scopes: ["user"],
  enabled,
  body: api.CreateOAuth2ApplicationOptions,
  responses: {
    201: { description: "OAuth2Application", schema: api.OAuth2Application },
    400: { description: "APIError", schema: api.APIError },
    ...forbidden,
    ...validationError,
  },
  async handler(c, { body, principal }) {
    const { application, secret } = await c
      .get("services")
      .oauth2Applications.create(requirePrincipal(principal).user, input(body));
    return c.json(toApiOAuth2Application(application, secret), 201);
  },
});

export const userGetOAuth2Application = route({
  method: "get",
  path: "/user/applications/oauth2/{id}",
  operationId: "userGetOAuth2Application",
  tags: ["user"],
  summary: "Get an OAuth2 application",
  access: "signed-in",
  scopes: ["user"],
  enabled,
  params: idParams,
  responses: {
    200: { description: "OAuth2Application", schema: api.OAuth2Application },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, principal }) {
    const app = await c.get("services").oauth2Applications.get(requirePrincipal(principal).user, params.id);
    return c.json(toApiOAuth2Application(app));
  },
});

export const userUpdateOAuth2Application = route({
  method: "patch",
  path: "/user/applications/oauth2/{id}",
  operationId: "userUpdateOAuth2Application",
  tags: ["user"],
  summary: "Update an OAuth2 application, this includes regenerating the client secret",
  access: "signed-in",
  scopes: ["user"],
  enabled,
  params: idParams,
  body: api.CreateOAuth2ApplicationOptions,
  responses: {
    200: { description: "OAuth2Application", schema: api.OAuth2Application },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, principal }) {
    const { application, secret } = await c
      .get("services")
      .oauth2Applications.update(requirePrincipal(principal).user, params.id, input(body));
    return c.json(toApiOAuth2Application(application, secret));
  },
});

export const userDeleteOAuth2Application = route({
  method: "delete",
  path: "/user/applications/oauth2/{id}",
  operationId: "userDeleteOAuth2Application",
  tags: ["user"],
  summary: "Delete an OAuth2 application",
  access: "signed-in",
  scopes: ["user"],
  enabled,
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    await c.get("services").oauth2Applications.delete(requirePrincipal(principal).user, params.id);
    return c.body(null, 204);
  },
});

export const oauth2ApplicationRoutes = [
  userGetOAuth2Applications,
  userCreateOAuth2Application,
  userGetOAuth2Application,
  userUpdateOAuth2Application,
  userDeleteOAuth2Application,
];
