import { api } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { empty, notFound, validationError } from "../responses.js";
import { avatarErrors } from "../user/avatar-responses.js";

/** Forgejo's routers/api/v1/org/avatar.go: an organization's avatar, for its owners. */

const orgParam = v.object({ org: v.string() });

export const orgUpdateAvatar = route({
  method: "post",
  path: "/orgs/{org}/avatar",
  operationId: "orgUpdateAvatar",
  tags: ["organization"],
  summary: "Update Avatar",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  body: api.UpdateUserAvatarOption,
  bodyLimit: (s) => api.avatarBodyLimit(s.picture.avatarMaxFileSize),
  responses: { ...empty, ...notFound, ...avatarErrors, ...validationError },
  async handler(c, { body, org: { org } }) {
    await c.get("services").avatars.setForAccount(org, body.image);
    return c.body(null, 204);
  },
});

export const orgDeleteAvatar = route({
  method: "delete",
  path: "/orgs/{org}/avatar",
  operationId: "orgDeleteAvatar",
  tags: ["organization"],
  summary: "Delete Avatar",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  responses: { ...empty, ...notFound },
  async handler(c, { org: { org } }) {
    await c.get("services").avatars.removeForAccount(org);
    return c.body(null, 204);
  },
});

export const orgAvatarRoutes = [orgUpdateAvatar, orgDeleteAvatar];
