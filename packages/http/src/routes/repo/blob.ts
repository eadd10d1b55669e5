import { api } from "@kiln/domain";
import { repoLinks, toGitBlob } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/blob.go. */

export const GetBlob = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/blobs/{sha}",
  operationId: "GetBlob",
  tags: ["repository"],
  summary: "Gets the blob of a repository.",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, sha: qs.string("sha of the commit") }),
  responses: {
    200: { description: "GitBlobResponse", schema: api.GitBlobResponse },
    400: { description: "APIError", schema: api.APIError },
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    // Forgejo's GetBlobBySHA: a blob above [api] DEFAULT_MAX_BLOB_SIZE comes without content.
    const limit = c.get("settings").api.defaultMaxBlobSize;
    const blob = await c.get("services").gitObjects.blob(access.repo, params.sha, limit);
    return c.json(toGitBlob(blob, repoLinks(access.repo, c.get("settings"))));
  },
});

export const blobRoutes = [GetBlob];
