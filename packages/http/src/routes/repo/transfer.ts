import { api } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { apiRepo, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/transfer.go. */

export const repoTransfer = route({
  method: "post",
  path: "/repos/{owner}/{repo}/transfer",
  operationId: "repoTransfer",
  tags: ["repository"],
  summary: "Transfer a repo ownership",
  access: "signed-in",
  repo: "owner",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.TransferRepoOption,
  responses: {
    201: { description: "transfer started; the recipient must accept it", schema: api.Repository },
    202: { description: "transferred", schema: api.Repository },
    ...forbidden,
    404: { description: "APINotFound", schema: api.APIError },
    409: { description: "APIConflict", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const outcome = await c.get("services").transfers.start(user, access.repo, body.new_owner, body.team_ids);
    const moved = await c.get("services").access.repoById(c.get("actor"), access.repo.id);
    return c.json(await apiRepo(c, moved.repo, moved), outcome === "transferred" ? 202 : 201);
  },
});

function decision(path: string, operationId: string, summary: string, accept: boolean) {
  return route({
    method: "post",
    path,
    operationId,
    tags: ["repository"],
    summary,
    access: "signed-in",
    repo: "read",
    scopes: ["repository"],
    params: v.object(repoParams),
    responses: {
      [accept ? 202 : 200]: { description: "Repository", schema: api.Repository },
      ...forbidden,
      ...notFound,
    },
    async handler(c, { principal, repo: access }) {
      const { user } = requirePrincipal(principal);
      await c.get("services").transfers.decide(user, access.repo, accept);
      const decided = await c.get("services").access.repoById(c.get("actor"), access.repo.id);
      return c.json(await apiRepo(c, decided.repo, decided), accept ? 202 : 200);
    },
  });
}

export const acceptRepoTransfer = decision(
  "/repos/{owner}/{repo}/transfer/accept",
  "acceptRepoTransfer",
  "Accept a repo transfer",
  true,
);
export const rejectRepoTransfer = decision(
  "/repos/{owner}/{repo}/transfer/reject",
  "rejectRepoTransfer",
  "Reject a repo transfer",
  false,
);

export const transferRoutes = [repoTransfer, acceptRepoTransfer, rejectRepoTransfer];
