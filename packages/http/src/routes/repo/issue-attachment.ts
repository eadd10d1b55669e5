import { api, BadRequestError, type Settings } from "@kiln/domain";
import * as v from "valibot";
import { toApiAttachment } from "../../convert/release.js";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { checkFileType, checkNewName, readUpload, type UploadedFile } from "../../upload.js";
import { empty, forbidden, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/issue_attachment.go and issue_comment_attachment.go: files of
 * issues, pull requests and their comments, uploaded as a multipart `attachment` under
 * `[attachment] MAX_SIZE` and `ALLOWED_TYPES` (422 for a refused type, as Forgejo), counted
 * against the repository's owner. Registered only with `[attachment] ENABLED`.
 */

const enabled = (s: Settings) => s.attachment.enabled;
const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const indexAssetParams = v.object({
  ...repoParams,
  index: qs.int("index of the issue", { min: 1 }),
  attachment_id: qs.int("id of the attachment to get"),
});
const commentParams = v.object({ ...repoParams, id: qs.int("id of the comment") });
const commentAssetParams = v.object({
  ...repoParams,
  id: qs.int("id of the comment"),
  attachment_id: qs.int("id of the attachment to get"),
});
const uploadQuery = v.object({
  name: v.optional(qs.string("name of the attachment")),
  updated_at: v.optional(qs.string("time of the attachment's creation (Kiln ignores it)")),
});
const uploadDoc = {
  consumes: ["multipart/form-data"],
  fields: { attachment: { type: "file", description: "attachment to upload", required: true } },
} as const;
const badRequest = { 400: { description: "error", schema: api.APIError } } as const;
const created = { 201: { description: "Attachment", schema: api.Attachment } } as const;
const uploadResponses = {
  ...created,
  ...badRequest,
  ...forbidden,
  ...notFound,
  413: { description: "error", schema: api.APIError },
  ...validationError,
  ...repoArchived,
} as const;
const editResponses = {
  ...created,
  ...badRequest,
  ...forbidden,
  ...notFound,
  ...quotaExceeded,
  ...validationError,
  ...repoArchived,
} as const;
const list = (c: AppContext, rows: Parameters<typeof toApiAttachment>[0][]) =>
  c.json(rows.map((a) => toApiAttachment(a, c.get("settings"))));

/** The multipart `attachment` of the request, checked against `[attachment] ALLOWED_TYPES`. */
async function attachmentOf(
  c: AppContext,
  name: string | undefined,
): Promise<{ file: UploadedFile; name: string; signal: AbortSignal }> {
  const settings = c.get("settings");
  const upload = await readUpload(c, {
    field: "attachment",
    raw: false,
    maxBytes: c.get("services").attachments.maxBytes(),
    limitName: `[attachment] MAX_SIZE (${settings.attachment.maxSize} MiB)`,
  });
  if (!upload.file) throw new BadRequestError("the form has no 'attachment' file");
  const fileName = name || upload.file.filename;
  if (!fileName) throw new BadRequestError("Missing 'name' parameter");
  checkFileType(upload.file, fileName, settings.attachment.allowedTypes, "invalid_argument");
  return { file: upload.file, name: fileName, signal: upload.signal };
}

export const issueListIssueAttachments = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/assets",
  operationId: "issueListIssueAttachments",
  tags: ["issue"],
  summary: "List issue's attachments",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  enabled,
  params: indexParams,
  responses: { 200: { description: "AttachmentList", schema: v.array(api.Attachment) }, ...notFound },
  async handler(c, { params, repo: ctx }) {
    return list(c, await c.get("services").issueAttachments.listOfIssue(ctx, params.index));
  },
});

export const issueCreateIssueAttachment = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/assets",
  operationId: "issueCreateIssueAttachment",
  tags: ["issue"],
  summary: "Create an issue attachment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  enabled,
  params: indexParams,
  query: uploadQuery,
  upload: uploadDoc,
  responses: uploadResponses,
  quota: { subject: "size:assets:attachments:issues", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, query, repo: ctx }) {
    const services = c.get("services");
    const issue = await services.issueAttachments.writableIssue(ctx, params.index);
    const { file, name, signal } = await attachmentOf(c, query.name);
    const row = await services.attachments.upload(
      ctx,
      { issueId: issue.id },
      { name, body: file.body, signal },
    );
    return c.json(toApiAttachment(row, c.get("settings")), 201);
  },
});

export const issueGetIssueAttachment = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}",
  operationId: "issueGetIssueAttachment",
  tags: ["issue"],
  summary: "Get an issue attachment",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  enabled,
  params: indexAssetParams,
  responses: { 200: { description: "Attachment", schema: api.Attachment }, ...notFound },
  async handler(c, { params, repo: ctx }) {
    const svc = c.get("services").issueAttachments;
    const row = await svc.ofIssue(ctx, await svc.issue(ctx, params.index), params.attachment_id);
    return c.json(toApiAttachment(row, c.get("settings")));
  },
});

export const issueEditIssueAttachment = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}",
  operationId: "issueEditIssueAttachment",
  tags: ["issue"],
  summary: "Edit an issue attachment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  enabled,
  params: indexAssetParams,
  body: api.EditAttachmentOptions,
  bodyRequired: false,
  responses: editResponses,
  async handler(c, { params, body, repo: ctx }) {
    const services = c.get("services");
    const svc = services.issueAttachments;
    const row = await svc.ofIssue(ctx, await svc.writableIssue(ctx, params.index), params.attachment_id);
    if (body?.name) checkNewName(body.name, c.get("settings").attachment.allowedTypes);
    const updated = await services.attachments.edit(row, { name: body?.name });
    return c.json(toApiAttachment(updated, c.get("settings")), 201);
  },
});

export const issueDeleteIssueAttachment = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/assets/{attachment_id}",
  operationId: "issueDeleteIssueAttachment",
  tags: ["issue"],
  summary: "Delete an issue attachment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  enabled,
  params: indexAssetParams,
  responses: { ...empty, ...forbidden, ...notFound, ...repoArchived },
  async handler(c, { params, repo: ctx }) {
    const services = c.get("services");
    const svc = services.issueAttachments;
    const row = await svc.ofIssue(ctx, await svc.writableIssue(ctx, params.index), params.attachment_id);
    await services.attachments.delete(row);
    return c.body(null, 204);
  },
});

export const issueListIssueCommentAttachments = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/assets",
  operationId: "issueListIssueCommentAttachments",
  tags: ["issue"],
  summary: "List comment's attachments",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  enabled,
  params: commentParams,
  responses: { 200: { description: "AttachmentList", schema: v.array(api.Attachment) }, ...notFound },
  async handler(c, { params, repo: ctx }) {
    return list(c, await c.get("services").issueAttachments.listOfComment(ctx, params.id));
  },
});

export const issueCreateIssueCommentAttachment = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/assets",
  operationId: "issueCreateIssueCommentAttachment",
  tags: ["issue"],
  summary: "Create a comment attachment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  enabled,
  params: commentParams,
  query: uploadQuery,
  upload: uploadDoc,
  responses: uploadResponses,
  quota: { subject: "size:assets:attachments:issues", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, query, repo: ctx }) {
    const services = c.get("services");
    const view = await services.issueAttachments.writableComment(ctx, params.id);
    const { file, name, signal } = await attachmentOf(c, query.name);
    const row = await services.attachments.upload(
      ctx,
      { issueId: view.comment.issueId, commentId: view.comment.id },
      { name, body: file.body, signal },
    );
    return c.json(toApiAttachment(row, c.get("settings")), 201);
  },
});

export const issueGetIssueCommentAttachment = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}",
  operationId: "issueGetIssueCommentAttachment",
  tags: ["issue"],
  summary: "Get a comment attachment",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  enabled,
  params: commentAssetParams,
  responses: { 200: { description: "Attachment", schema: api.Attachment }, ...notFound },
  async handler(c, { params, repo: ctx }) {
    const svc = c.get("services").issueAttachments;
    const row = await svc.ofComment(ctx, await svc.comment(ctx, params.id), params.attachment_id);
    return c.json(toApiAttachment(row, c.get("settings")));
  },
});

export const issueEditIssueCommentAttachment = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}",
  operationId: "issueEditIssueCommentAttachment",
  tags: ["issue"],
  summary: "Edit a comment attachment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  enabled,
  params: commentAssetParams,
  body: api.EditAttachmentOptions,
  bodyRequired: false,
  responses: editResponses,
  async handler(c, { params, body, repo: ctx }) {
    const services = c.get("services");
    const svc = services.issueAttachments;
    const row = await svc.ofComment(ctx, await svc.writableComment(ctx, params.id), params.attachment_id);
    if (body?.name) checkNewName(body.name, c.get("settings").attachment.allowedTypes);
    const updated = await services.attachments.edit(row, { name: body?.name });
    return c.json(toApiAttachment(updated, c.get("settings")), 201);
  },
});

export const issueDeleteIssueCommentAttachment = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/assets/{attachment_id}",
  operationId: "issueDeleteIssueCommentAttachment",
  tags: ["issue"],
  summary: "Delete a comment attachment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  enabled,
  params: commentAssetParams,
  responses: { ...empty, ...forbidden, ...notFound, ...repoArchived },
  async handler(c, { params, repo: ctx }) {
    const services = c.get("services");
    const svc = services.issueAttachments;
    const row = await svc.ofComment(ctx, await svc.writableComment(ctx, params.id), params.attachment_id);
    await services.attachments.delete(row);
    return c.body(null, 204);
  },
});

/** Comment attachments (`/issues/comments/{id}/assets…`). */
export const issueCommentAttachmentRoutes = [
  issueListIssueCommentAttachments,
  issueCreateIssueCommentAttachment,
  issueGetIssueCommentAttachment,
  issueEditIssueCommentAttachment,
  issueDeleteIssueCommentAttachment,
];

export const issueAttachmentRoutes = [
  issueListIssueAttachments,
  issueCreateIssueAttachment,
  issueGetIssueAttachment,
  issueEditIssueAttachment,
  issueDeleteIssueAttachment,
];
