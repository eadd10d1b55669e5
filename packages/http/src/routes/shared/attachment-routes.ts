import { api, BadRequestError, type Settings } from "@kiln/domain";
import { type RepoAccess, type Services, toApiAttachment } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { type AnyRoute, type RouteInput, route } from "../../route.js";
import { checkFileType, checkNewName, readUpload, type UploadedFile } from "../../upload.js";
import { repoParams } from "../repo/context.js";
import { empty, forbidden, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";

// biome-ignore lint/suspicious/noExplicitAny: one factory serves holders whose path parameters differ
type AnyInput = RouteInput<any, any, any, "read", undefined>;
type AttachmentRow = Parameters<typeof toApiAttachment>[0];
type IssueAttachments = Services["issueAttachments"];

/**
 * What holds a family of attachments: an issue or one of its comments. The five operations are the
 * same for both (Forgejo's issue_attachment.go and issue_comment_attachment.go are twins); the
 * holder says where it sits, how Forgejo names and words its operations, and how the service
 * finds it.
 */
export interface AttachmentHolder {
  /** The operationId infix: `Issue` → `issueListIssueAttachments`. */
  readonly name: "Issue" | "IssueComment";
  /** The collection's path, e.g. `/repos/{owner}/{repo}/issues/{index}/assets`. */
  readonly path: string;
  /** The path parameters that name the holder (besides owner and repo). */
  readonly params: v.ObjectEntries;
  /** Forgejo's summaries of the five operations, in the order list, create, get, edit, delete. */
  readonly summaries: readonly [string, string, string, string, string];
  /** The holder's attachments. */
  readonly list: (
    svc: IssueAttachments,
    repo: RepoAccess,
    params: AnyInput["params"],
  ) => Promise<AttachmentRow[]>;
  /** One attachment of the holder; `writable` asks that the caller may change the holder. */
  readonly find: (
    svc: IssueAttachments,
    repo: RepoAccess,
    params: AnyInput["params"],
    writable: boolean,
  ) => Promise<AttachmentRow>;
  /** Where a new upload is filed, once the caller is known to be allowed to change the holder. */
  readonly target: (
    svc: IssueAttachments,
    repo: RepoAccess,
    params: AnyInput["params"],
  ) => Promise<{ issueId: number; commentId?: number }>;
}

const enabled = (s: Settings) => s.attachment.enabled;
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
const common = { ...created, ...badRequest, ...forbidden, ...notFound } as const;
const uploadResponses = {
  ...common,
  413: { description: "error", schema: api.APIError },
  ...validationError,
  ...repoArchived,
} as const;
const editResponses = { ...common, ...quotaExceeded, ...validationError, ...repoArchived } as const;
const show = (c: AppContext, row: AttachmentRow) => toApiAttachment(row, c.get("settings"));

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

/**
 * The five attachment routes of a holder: list, upload, get, rename and delete. Files are counted
 * against the repository's owner and are registered only with `[attachment] ENABLED`.
 */
export function attachmentRoutes(holder: AttachmentHolder): AnyRoute[] {
  const base = { tags: ["issue"], repo: "read", scopes: ["issue"], enabled } as const;
  const writes = { ...base, access: "signed-in", notArchived: true } as const;
  const collection = v.object({ ...repoParams, ...holder.params });
  const item = v.object({
    ...repoParams,
    ...holder.params,
    attachment_id: qs.int("id of the attachment to get"),
  });
  const id = (verb: string, plural = "") => `issue${verb}${holder.name}Attachment${plural}`;
  const svc = (c: AppContext) => c.get("services").issueAttachments;
  const at = `${holder.path}/{attachment_id}`;
  const [listSummary, createSummary, getSummary, editSummary, deleteSummary] = holder.summaries;
  return [
    route({
      ...base,
      access: "public",
      method: "get",
      path: holder.path,
      operationId: id("List", "s"),
      summary: listSummary,
      params: collection,
      responses: { 200: { description: "AttachmentList", schema: v.array(api.Attachment) }, ...notFound },
      async handler(c, { params, repo }: AnyInput) {
        return c.json((await holder.list(svc(c), repo, params)).map((row) => show(c, row)));
      },
    }),
    route({
      ...writes,
      method: "post",
      path: holder.path,
      operationId: id("Create"),
      summary: createSummary,
      params: collection,
      query: uploadQuery,
      upload: uploadDoc,
      responses: uploadResponses,
      quota: { subject: "size:assets:attachments:issues", owner: (_c, { repo }) => repo.owner },
      async handler(c, { params, query, repo }: AnyInput) {
        const target = await holder.target(svc(c), repo, params);
        const { file, name, signal } = await attachmentOf(c, query.name);
        const row = await c
          .get("services")
          .attachments.upload(repo, target, { name, body: file.body, signal });
        return c.json(show(c, row), 201);
      },
    }),
    route({
      ...base,
      access: "public",
      method: "get",
      path: at,
      operationId: id("Get"),
      summary: getSummary,
      params: item,
      responses: { 200: { description: "Attachment", schema: api.Attachment }, ...notFound },
      async handler(c, { params, repo }: AnyInput) {
        return c.json(show(c, await holder.find(svc(c), repo, params, false)));
      },
    }),
    route({
      ...writes,
      method: "patch",
      path: at,
      operationId: id("Edit"),
      summary: editSummary,
      params: item,
      body: api.EditAttachmentOptions,
      bodyRequired: false,
      responses: editResponses,
      async handler(c, { params, body, repo }: AnyInput) {
        const row = await holder.find(svc(c), repo, params, true);
        if (body?.name) checkNewName(body.name, c.get("settings").attachment.allowedTypes);
        const updated = await c.get("services").attachments.edit(row, { name: body?.name });
        return c.json(show(c, updated), 201);
      },
    }),
    route({
      ...writes,
      method: "delete",
      path: at,
      operationId: id("Delete"),
      summary: deleteSummary,
      params: item,
      responses: { ...empty, ...forbidden, ...notFound, ...repoArchived },
      async handler(c, { params, repo }: AnyInput) {
        await c.get("services").attachments.delete(await holder.find(svc(c), repo, params, true));
        return c.body(null, 204);
      },
    }),
  ];
}
