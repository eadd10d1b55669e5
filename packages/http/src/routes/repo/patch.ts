import { api } from "@kiln/domain";
import { repoLinks, toFileResponse } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { conflict, notFound, quotaExceeded, repoArchived } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/patch.go: apply a unified diff to a branch as one commit. */

export const repoApplyDiffPatch = route({
  method: "post",
  path: "/repos/{owner}/{repo}/diffpatch",
  operationId: "repoApplyDiffPatch",
  tags: ["repository"],
  summary: "Apply diff patch to repository",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.ApplyDiffPatchFileOptions,
  responses: {
    201: { description: "FileResponse", schema: api.FileResponse },
    403: { description: "APIError", schema: api.APIError },
    ...notFound,
    ...conflict,
    ...quotaExceeded,
    422: { description: "APIError", schema: api.APIError },
    ...repoArchived,
  },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const result = await c.get("services").patches.apply(access.repo, user, body.content, {
      ...(body.branch ? { branch: body.branch } : {}),
      ...(body.new_branch ? { newBranch: body.new_branch } : {}),
      ...(body.message ? { message: body.message } : {}),
      ...(body.author ? { author: body.author } : {}),
      ...(body.committer ? { committer: body.committer } : {}),
      ...(body.signoff ? { signoff: true } : {}),
      dates: {
        ...(body.dates?.author ? { author: new Date(body.dates.author) } : {}),
        ...(body.dates?.committer ? { committer: new Date(body.dates.committer) } : {}),
      },
    });
    return c.json(toFileResponse(result, repoLinks(access.repo, c.get("settings")), c.get("settings")), 201);
  },
});

export const patchRoutes = [repoApplyDiffPatch];
