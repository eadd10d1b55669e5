import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { apiPublicKey } from "../user/key.js";

/** The SSH key routes of Forgejo's routers/api/v1/admin/user.go (CreatePublicKey, DeleteUserPublicKey). */

const username = { username: v.pipe(v.string(), v.maxLength(255)) };

export const adminCreatePublicKey = route({
  method: "post",
  path: "/admin/users/{username}/keys",
  operationId: "adminCreatePublicKey",
  tags: ["admin"],
  summary: "Add a public key on behalf of a user",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object(username),
  body: api.CreateKeyOption,
  responses: { 201: { description: "PublicKey", schema: api.PublicKey }, ...forbidden, ...validationError },
  async handler(c, { params, body }) {
    const services = c.get("services");
    const user = await services.access.account(c.get("actor"), params.username);
    const key = await services.sshKeys.create(user, body.title, body.key);
    return c.json(apiPublicKey(c, key, user), 201);
  },
});

export const adminDeleteUserPublicKey = route({
  method: "delete",
  path: "/admin/users/{username}/keys/{id}",
  operationId: "adminDeleteUserPublicKey",
  tags: ["admin"],
  summary: "Delete a user's public key",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ ...username, id: qs.int("id of the key to delete") }),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    const services = c.get("services");
    const user = await services.access.account(c.get("actor"), params.username);
    await services.sshKeys.delete(user, params.id);
    return c.body(null, 204);
  },
});

export const adminUserKeyRoutes = [adminCreatePublicKey, adminDeleteUserPublicKey];
