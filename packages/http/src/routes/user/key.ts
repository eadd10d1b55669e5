import { api, type SshKey, type User } from "@kiln/domain";
import { accountSight, seesKeyDetails, toApiPublicKey } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/**
 * Forgejo's routers/api/v1/user/key.go: SSH keys. Public keys are public (anyone who may see a
 * user may list them); `key_type` and `user` are shown to the key's owner and site admins. Unlike
 * Forgejo, `/user/keys/{id}` and `?fingerprint=` on `/user/keys` only find the caller's own keys
 * (Forgejo looks across every user, which would reveal the keys of accounts the caller may not see).
 */

const publicKey = { description: "PublicKey", schema: api.PublicKey };
const publicKeyList = { description: "PublicKeyList", schema: v.array(api.PublicKey) };
const idParams = v.object({ id: qs.int("id of key") });
const fingerprintQuery = {
  fingerprint: v.optional(v.pipe(qs.string("fingerprint of the key"), v.maxLength(128))),
};

/** The key in API shape, with its owner's details when the viewer is the owner or a site admin. */
export function apiPublicKey(c: AppContext, key: SshKey, owner: User) {
  const viewer = c.get("actor").user;
  const details = viewer !== null && seesKeyDetails(viewer, key);
  return toApiPublicKey(
    key,
    c.get("settings"),
    details ? { user: owner, sight: accountSight(viewer) } : undefined,
  );
}

export const userCurrentListKeys = route({
  method: "get",
  path: "/user/keys",
  operationId: "userCurrentListKeys",
  tags: ["user"],
  summary: "List the authenticated user's public keys",
  access: "signed-in",
  scopes: ["user"],
  query: v.object({ ...fingerprintQuery, ...pageQuery }),
  responses: { 200: publicKeyList, ...forbidden },
  handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").sshKeys.list(user, page, query.fingerprint),
      (key) => apiPublicKey(c, key, user),
    );
  },
});

export const userCurrentPostKey = route({
  method: "post",
  path: "/user/keys",
  operationId: "userCurrentPostKey",
  tags: ["user"],
  summary: "Create a public key",
  access: "signed-in",
  scopes: ["user"],
  body: api.CreateKeyOption,
  responses: { 201: publicKey, ...forbidden, ...validationError },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const key = await c.get("services").sshKeys.create(user, body.title, body.key);
    return c.json(apiPublicKey(c, key, user), 201);
  },
});

export const userCurrentGetKey = route({
  method: "get",
  path: "/user/keys/{id}",
  operationId: "userCurrentGetKey",
  tags: ["user"],
  summary: "Get a public key",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  responses: { 200: publicKey, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    return c.json(apiPublicKey(c, await c.get("services").sshKeys.get(user, params.id), user));
  },
});

export const userCurrentDeleteKey = route({
  method: "delete",
  path: "/user/keys/{id}",
  operationId: "userCurrentDeleteKey",
  tags: ["user"],
  summary: "Delete a public key",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").sshKeys.delete(user, params.id);
    return c.body(null, 204);
  },
});

export const userListKeys = route({
  method: "get",
  path: "/users/{username}/keys",
  operationId: "userListKeys",
  tags: ["user"],
  summary: "List the given user's public keys",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: v.pipe(v.string(), v.maxLength(255)) }),
  query: v.object({ ...fingerprintQuery, ...pageQuery }),
  responses: { 200: publicKeyList, ...notFound },
  async handler(c, { params, query }) {
    const services = c.get("services");
    const user = await services.access.account(c.get("actor"), params.username);
    return pagedJson(
      c,
      query,
      (page) => services.sshKeys.list(user, page, query.fingerprint),
      (key) => apiPublicKey(c, key, user),
    );
  },
});

export const sshKeyRoutes = [
  userCurrentListKeys,
  userCurrentPostKey,
  userCurrentGetKey,
  userCurrentDeleteKey,
  userListKeys,
];
