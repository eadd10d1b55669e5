import { api } from "@kiln/domain";
import { toApiGpgKey } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/**
 * Forgejo's routers/api/v1/user/gpg_key.go: GPG keys. A user's own keys by id are theirs only
 * (another user's key id is 404); anyone who may see a user may list that user's keys.
 */

const gpgKey = { description: "GPGKey", schema: api.GPGKey };
const gpgKeyList = { description: "GPGKeyList", schema: v.array(api.GPGKey) };
const idParams = v.object({ id: qs.int("id of key") });

export const userCurrentListGPGKeys = route({
  method: "get",
  path: "/user/gpg_keys",
  operationId: "userCurrentListGPGKeys",
  tags: ["user"],
  summary: "List the authenticated user's GPG keys",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: gpgKeyList, ...forbidden },
  handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return pagedJson(c, query, (page) => c.get("services").gpgKeys.list(user, page), toApiGpgKey);
  },
});

export const userCurrentPostGPGKey = route({
  method: "post",
  path: "/user/gpg_keys",
  operationId: "userCurrentPostGPGKey",
  tags: ["user"],
  summary: "Create a GPG key",
  access: "signed-in",
  scopes: ["user"],
  body: api.CreateGPGKeyOption,
  responses: { 201: gpgKey, ...forbidden, ...notFound, ...validationError },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const key = await c
      .get("services")
      .gpgKeys.create(user, user, body.armored_public_key, body.armored_signature);
    return c.json(toApiGpgKey(key), 201);
  },
});

export const userCurrentGetGPGKey = route({
  method: "get",
  path: "/user/gpg_keys/{id}",
  operationId: "userCurrentGetGPGKey",
  tags: ["user"],
  summary: "Get a GPG key",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  responses: { 200: gpgKey, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    return c.json(toApiGpgKey(await c.get("services").gpgKeys.get(user, params.id)));
  },
});

export const userCurrentDeleteGPGKey = route({
  method: "delete",
  path: "/user/gpg_keys/{id}",
  operationId: "userCurrentDeleteGPGKey",
  tags: ["user"],
  summary: "Remove a GPG key",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").gpgKeys.delete(user, params.id);
    return c.body(null, 204);
  },
});

export const userListGPGKeys = route({
  method: "get",
  path: "/users/{username}/gpg_keys",
  operationId: "userListGPGKeys",
  tags: ["user"],
  summary: "List the given user's GPG keys",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: v.pipe(v.string(), v.maxLength(255)) }),
  query: v.object(pageQuery),
  responses: { 200: gpgKeyList, ...notFound },
  async handler(c, { params, query }) {
    const services = c.get("services");
    const user = await services.access.account(c.get("actor"), params.username);
    return pagedJson(c, query, (page) => services.gpgKeys.list(user, page), toApiGpgKey);
  },
});

export const getVerificationToken = route({
  method: "get",
  path: "/user/gpg_key_token",
  operationId: "getVerificationToken",
  tags: ["user"],
  summary: "Get a Token to verify",
  access: "signed-in",
  scopes: ["user"],
  responses: { 200: { description: "string", schema: "text" }, ...forbidden, ...notFound },
  handler(c, { principal }) {
    const { user } = requirePrincipal(principal);
    return c.body(c.get("services").gpgKeys.token(user), 200, {
      "Content-Type": "text/plain; charset=utf-8",
    });
  },
});

export const userVerifyGPGKey = route({
  method: "post",
  path: "/user/gpg_key_verify",
  operationId: "userVerifyGPGKey",
  tags: ["user"],
  summary: "Verify a GPG key",
  access: "signed-in",
  scopes: ["user"],
  body: api.VerifyGPGKeyOption,
  responses: { 200: gpgKey, 201: gpgKey, ...forbidden, ...notFound, ...validationError },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const key = await c.get("services").gpgKeys.verify(user, body.key_id, body.armored_signature);
    // Forgejo documents 201 and answers 200.
    return c.json(toApiGpgKey(key), 200);
  },
});

export const gpgKeyRoutes = [
  userCurrentListGPGKeys,
  userCurrentPostGPGKey,
  userCurrentGetGPGKey,
  userCurrentDeleteGPGKey,
  userListGPGKeys,
  getVerificationToken,
  userVerifyGPGKey,
];
