import { api } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { empty, notFound, validationError } from "../responses.js";
import { avatarErrors } from "../user/avatar-responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/avatar.go: a repository's avatar, for its administrators. */

export const repoUpdateAvatar = route({
  method: "post",
  path: "/repos/{owner}/{repo}/avatar",
  operationId: "repoUpdateAvatar",
  tags: ["repository"],
  summary: "Update avatar",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.UpdateRepoAvatarOption,
  bodyLimit: (s) => api.avatarBodyLimit(s.picture.avatarMaxFileSize),
  responses: { ...empty, ...notFound, ...avatarErrors, ...validationError },
  async handler(c, { body, repo: access }) {
    await c.get("services").avatars.setForRepo(access.repo, body.image);
    return c.body(null, 204);
  },
});

export const repoDeleteAvatar = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/avatar",
  operationId: "repoDeleteAvatar",
  tags: ["repository"],
  summary: "Delete avatar",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...empty, ...notFound },
  async handler(c, { repo: access }) {
    await c.get("services").avatars.removeForRepo(access.repo);
    return c.body(null, 204);
  },
});

export const repoAvatarRoutes = [repoUpdateAvatar, repoDeleteAvatar];
