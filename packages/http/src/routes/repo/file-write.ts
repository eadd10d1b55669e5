import { api, InvalidArgumentError } from "@kiln/domain";
import {
  type FileCommitInput,
  repoLinks,
  toFileDeleteResponse,
  toFileResponse,
  toFilesResponse,
} from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { conflict, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/file.go, writing: create, update and delete one file, or change
 * several in one commit. Each write is quota-checked for the repository's owner (`size:repos:all`,
 * as Forgejo's EnforceQuotaAPI) and re-measures the repository (size and quota usage).
 */

type FileOptions = v.InferOutput<typeof api.CreateFileOptions> | v.InferOutput<typeof api.ChangeFilesOptions>;

/** Decodes base64 content strictly, as Go's StdEncoding does (line breaks ignored); 422 otherwise. */
function decodeBase64(content: string | undefined): Uint8Array {
  const text = (content ?? "").replace(/[\r\n]/g, "");
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    throw new InvalidArgumentError("Invalid base64 content");
  }
  return new Uint8Array(Buffer.from(text, "base64"));
}

function commitInput(body: Omit<FileOptions, "content" | "files">): FileCommitInput {
  return {
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
  };
}

const writeResponses = {
  403: { description: "APIError", schema: api.APIError },
  ...notFound,
  ...conflict,
  ...quotaExceeded,
  422: { description: "APIError", schema: api.APIError },
  ...repoArchived,
};

const fileParams = (description: string) => v.object({ ...repoParams, filepath: qs.string(description) });

export const repoCreateFile = route({
  method: "post",
  path: "/repos/{owner}/{repo}/contents/{filepath*}",
  operationId: "repoCreateFile",
  tags: ["repository"],
  summary: "Create a file in a repository",
  access: "signed-in",
  repo: "branch-write",
  scopes: ["repository"],
  params: fileParams("path of the file to create"),
  body: api.CreateFileOptions,
  responses: { 201: { description: "FileResponse", schema: api.FileResponse }, ...writeResponses },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const op = { operation: "create", path: params.filepath, content: decodeBase64(body.content) } as const;
    const result = await c.get("services").files.createFile(access.repo, user, op, commitInput(body));
    return c.json(toFileResponse(result, repoLinks(access.repo, c.get("settings")), c.get("settings")), 201);
  },
});

export const repoUpdateFile = route({
  method: "put",
  path: "/repos/{owner}/{repo}/contents/{filepath*}",
  operationId: "repoUpdateFile",
  tags: ["repository"],
  summary: "Update a file in a repository",
  access: "signed-in",
  repo: "branch-write",
  scopes: ["repository"],
  params: fileParams("path of the file to update"),
  body: api.UpdateFileOptions,
  responses: { 200: { description: "FileResponse", schema: api.FileResponse }, ...writeResponses },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const op = {
      operation: "update",
      path: params.filepath,
      content: decodeBase64(body.content),
      sha: body.sha,
      ...(body.from_path ? { fromPath: body.from_path } : {}),
    } as const;
    const result = await c.get("services").files.updateFile(access.repo, user, op, commitInput(body));
    return c.json(toFileResponse(result, repoLinks(access.repo, c.get("settings")), c.get("settings")));
  },
});

export const repoDeleteFile = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/contents/{filepath*}",
  operationId: "repoDeleteFile",
  tags: ["repository"],
  summary: "Delete a file in a repository",
  access: "signed-in",
  repo: "branch-write",
  scopes: ["repository"],
  params: fileParams("path of the file to delete"),
  body: api.DeleteFileOptions,
  responses: {
    200: { description: "FileDeleteResponse", schema: api.FileDeleteResponse },
    400: { description: "APIError", schema: api.APIError },
    403: { description: "APIError", schema: api.APIError },
    404: { description: "APIError", schema: api.APINotFound },
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const op = { operation: "delete", path: params.filepath, sha: body.sha } as const;
    const result = await c.get("services").files.deleteFile(access.repo, user, op, commitInput(body));
    return c.json(toFileDeleteResponse(result, repoLinks(access.repo, c.get("settings"))));
  },
});

export const repoChangeFiles = route({
  method: "post",
  path: "/repos/{owner}/{repo}/contents",
  operationId: "repoChangeFiles",
  tags: ["repository"],
  summary: "Modify multiple files in a repository",
  access: "signed-in",
  repo: "branch-write",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.ChangeFilesOptions,
  responses: { 201: { description: "FilesResponse", schema: api.FilesResponse }, ...writeResponses },
  quota: { subject: "size:repos:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { body, principal, repo: access }) {
    const { user } = requirePrincipal(principal);
    const ops = body.files.map((file) => {
      if (file.operation === "create") {
        return { operation: "create", path: file.path, content: decodeBase64(file.content) } as const;
      }
      if (file.operation === "delete") {
        return { operation: "delete", path: file.path, sha: file.sha ?? "" } as const;
      }
      return {
        operation: "update",
        path: file.path,
        content: decodeBase64(file.content),
        sha: file.sha ?? "",
        ...(file.from_path ? { fromPath: file.from_path } : {}),
      } as const;
    });
    const result = await c.get("services").files.changeFiles(access.repo, user, ops, commitInput(body));
    return c.json(toFilesResponse(result, repoLinks(access.repo, c.get("settings")), c.get("settings")), 201);
  },
});

export const fileWriteRoutes = [repoChangeFiles, repoCreateFile, repoUpdateFile, repoDeleteFile];
