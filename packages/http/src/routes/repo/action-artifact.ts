import { api, BadRequestError } from "@kiln/domain";
import { MAX_ARTIFACT_NAME, toApiActionArtifact } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pageRequest } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { readUpload } from "../../upload.js";
import {
  conflict,
  empty,
  forbidden,
  notFound,
  quotaExceeded,
  repoArchived,
  validationError,
} from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Actions artifacts in Gitea 1.23's shapes (routers/api/v1/repo/action.go; Forgejo v12 has none
 * beyond the quota lists): list, get, delete and download, for readers of the repository's Actions
 * (writers delete). Kiln runs no workflows and speaks no runner protocol, so artifacts arrive
 * through Kiln's own upload route below.
 */

/** Why the four Gitea routes are Kiln extensions. */
const GITEA_ARTIFACTS =
  "Kiln's specification asks for Actions artifacts in Gitea 1.23's shapes; Forgejo v12's description has no artifacts API beyond the quota lists";

const artifactParams = v.object({ ...repoParams, artifact_id: qs.int("id of the artifact", { min: 1 }) });

export const getArtifacts = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/artifacts",
  operationId: "getArtifacts",
  extension: GITEA_ARTIFACTS,
  tags: ["repository"],
  summary: "Lists all artifacts for a repository",
  access: "public",
  repo: { read: "repo.actions" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    name: v.optional(v.pipe(qs.string("name of the artifact"), v.maxLength(MAX_ARTIFACT_NAME))),
    ...pageQuery,
  }),
  responses: {
    200: { description: "ArtifactsList", schema: api.ActionArtifactsResponse },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const filter = query.name !== undefined && query.name !== "" ? { name: query.name } : {};
    const list = await c.get("services").artifacts.list(access.repo, filter, page);
    const settings = c.get("settings");
    return c.json({
      total_count: list.total,
      artifacts: list.items.map((a) => toApiActionArtifact(a, access.repo, settings)),
    });
  },
});

export const getArtifact = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}",
  operationId: "getArtifact",
  extension: GITEA_ARTIFACTS,
  tags: ["repository"],
  summary: "Gets a specific artifact for a workflow run",
  access: "public",
  repo: { read: "repo.actions" },
  scopes: ["repository"],
  params: artifactParams,
  responses: { 200: { description: "Artifact", schema: api.ActionArtifact }, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    const artifact = await c.get("services").artifacts.get(access.repo, params.artifact_id);
    return c.json(toApiActionArtifact(artifact, access.repo, c.get("settings")));
  },
});

export const deleteArtifact = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}",
  operationId: "deleteArtifact",
  extension: GITEA_ARTIFACTS,
  tags: ["repository"],
  summary: "Deletes a specific artifact for a workflow run",
  access: "signed-in",
  repo: { write: ["repo.actions"] },
  scopes: ["repository"],
  params: artifactParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").artifacts.delete(access.repo, params.artifact_id);
    return c.body(null, 204);
  },
});

export const downloadArtifact = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/zip",
  operationId: "downloadArtifact",
  extension: GITEA_ARTIFACTS,
  tags: ["repository"],
  summary: "Downloads a specific artifact for a workflow run",
  access: "public",
  repo: { read: "repo.actions" },
  scopes: ["repository"],
  params: artifactParams,
  responses: {
    200: { description: "the artifact's zip archive, streamed", schema: "file" },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    // Gitea redirects (302) to a signed `zip/raw` URL; Kiln answers with the bytes at once.
    const { artifact, body } = await c.get("services").artifacts.open(access.repo, params.artifact_id);
    const file = `${artifact.name}.zip`;
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "application/zip",
        "Content-Length": String(artifact.size),
        "Content-Disposition": `attachment; filename="${file.replace(/["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file)}`,
        "Last-Modified": artifact.createdAt.toUTCString(),
      },
    });
  },
});

export const uploadArtifact = route({
  method: "post",
  path: "/repos/{owner}/{repo}/actions/runs/{run}/artifacts",
  operationId: "kilnUploadArtifact",
  extension:
    "Kiln's specification asks for artifact uploads; Forgejo and Gitea take them only from runners over their own protocol, which Kiln does not speak, so this route is how a CI system stores a run's zip",
  tags: ["repository"],
  summary: "Upload an artifact of a workflow run (a zip archive, multipart `attachment` or the raw body)",
  access: "signed-in",
  repo: { write: ["repo.actions"] },
  notArchived: true,
  scopes: ["repository"],
  params: v.object({ ...repoParams, run: qs.int("id of the workflow run", { min: 1 }) }),
  query: v.object({
    name: v.pipe(
      qs.string("name of the artifact"),
      v.minLength(1, "Required"),
      v.maxLength(MAX_ARTIFACT_NAME),
    ),
    retention_days: v.optional(
      qs.int("days to keep it (at most and by default [actions] ARTIFACT_RETENTION_DAYS)", {
        min: 1,
        max: 100_000,
      }),
    ),
    head_sha: v.optional(
      v.pipe(
        qs.string("the commit the run built"),
        v.regex(/^([0-9a-f]{40}|[0-9a-f]{64})$/, "must be a commit id"),
      ),
    ),
  }),
  upload: {
    consumes: ["multipart/form-data", "application/zip", "application/octet-stream"],
    fields: { attachment: { type: "file", description: "the artifact's zip archive (or the raw body)" } },
  },
  responses: {
    201: { description: "Artifact", schema: api.ActionArtifact },
    400: { description: "a broken multipart form", schema: api.APIError },
    ...forbidden,
    ...notFound,
    ...conflict,
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:assets:artifacts", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, query, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const maxBytes = c.get("settings").actions.artifactMaxSize;
    const upload = await readUpload(c, {
      field: "attachment",
      raw: true,
      maxBytes,
      limitName: `[actions] ARTIFACT_MAX_SIZE (${maxBytes} bytes)`,
    });
    if (!upload.file) throw new BadRequestError('the form has no "attachment" file');
    const artifact = await c.get("services").artifacts.upload(
      access.repo,
      user,
      {
        runId: params.run,
        name: query.name,
        ...(query.retention_days !== undefined ? { retentionDays: query.retention_days } : {}),
        ...(query.head_sha !== undefined ? { headSha: query.head_sha } : {}),
      },
      upload.file.body,
      upload.signal,
    );
    return c.json(toApiActionArtifact(artifact, access.repo, c.get("settings")), 201);
  },
});

export const artifactRoutes = [getArtifacts, getArtifact, deleteArtifact, downloadArtifact, uploadArtifact];
