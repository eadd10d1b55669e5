import { api } from "@kiln/domain";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { empty, validationError } from "../responses.js";
import { avatarErrors } from "./avatar-responses.js";

/** Forgejo's routers/api/v1/user/avatar.go: the signed-in user's avatar. */

export const userUpdateAvatar = route({
  method: "post",
  path: "/user/avatar",
  operationId: "userUpdateAvatar",
  tags: ["user"],
  summary: "Update Avatar",
  access: "signed-in",
  scopes: ["user"],
  body: api.UpdateUserAvatarOption,
  bodyLimit: (s) => api.avatarBodyLimit(s.picture.avatarMaxFileSize),
  responses: { ...empty, ...avatarErrors, ...validationError },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").avatars.setForAccount(user, body.image);
    return c.body(null, 204);
  },
});

export const userDeleteAvatar = route({
  method: "delete",
  path: "/user/avatar",
  operationId: "userDeleteAvatar",
  tags: ["user"],
  summary: "Delete Avatar",
  access: "signed-in",
  scopes: ["user"],
  responses: { ...empty },
  async handler(c, { principal }) {
    const { user } = requirePrincipal(principal);
    await c.get("services").avatars.removeForAccount(user);
    return c.body(null, 204);
  },
});

export const userAvatarRoutes = [userUpdateAvatar, userDeleteAvatar];
