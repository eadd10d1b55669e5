import { api, BadRequestError, NotFoundError } from "@kiln/domain";
import { type RepoAccess, releaseAssetUrls, toApiAttachment } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { checkFileType, checkNewName, isMultipart, readUpload } from "../../upload.js";
import { empty, forbidden, notFound, quotaExceeded, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/release_attachment.go: a release's assets. Uploads take a
 * multipart `attachment` file or a raw body (named by `?name=`), streamed into the attachment
 * store under `[attachment] MAX_SIZE` and `[repository.release] ALLOWED_TYPES`; or an
 * `external_url` form field links a file kept elsewhere. Reads need the releases unit (drafts'
 * assets only its writers), changes write access to it.
 */

const releaseParams = v.object({ ...repoParams, id: qs.int("id of the release") });
const assetParams = v.object({
  ...repoParams,
  id: qs.int("id of the release"),
  attachment_id: qs.int("id of the attachment"),
});
const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;

/** The release's asset `id`, or 404. */
async function assetOf(c: AppContext, access: RepoAccess, releaseId: number, id: number) {
  const services = c.get("services");
  const release = await services.releases.get(access, releaseId);
  const row = await services.attachments.find(access.repo.id, id);
  if (!row || row.releaseId !== release.id) throw new NotFoundError("attachment does not exist");
  return row;
}

export const repoListReleaseAttachments = route({
  method: "get",
  path: "/repos/{owner}/{repo}/releases/{id}/assets",
  operationId: "repoListReleaseAttachments",
  tags: ["repository"],
  summary: "List release's attachments",
  access: "public",
  repo: { read: "repo.releases" },
  scopes: ["repository"],
  params: releaseParams,
  responses: { 200: { description: "AttachmentList", schema: v.array(api.Attachment) }, ...notFound },
  async handler(c, { params, repo: access }) {
    const services = c.get("services");
    const release = await services.releases.get(access, params.id);
    const rows = await services.attachments.ofReleases([release.id]);
    // As Forgejo's, the list is the release's `assets`: named links when the names are unique.
    const named = releaseAssetUrls(release, access.repo, rows, c.get("settings"));
    return c.json(rows.map((a) => toApiAttachment(a, c.get("settings"), named.get(a.id))));
  },
});

export const repoCreateReleaseAttachment = route({
  method: "post",
  path: "/repos/{owner}/{repo}/releases/{id}/assets",
  operationId: "repoCreateReleaseAttachment",
  tags: ["repository"],
  summary: "Create a release attachment",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: releaseParams,
  query: v.object({ name: v.optional(qs.string("name of the attachment")) }),
  upload: {
    consumes: ["multipart/form-data", "application/octet-stream"],
    fields: {
      attachment: {
        type: "file",
        description: "attachment to upload (this parameter is incompatible with `external_url`)",
      },
      external_url: {
        type: "string",
        description: "url to external asset (this parameter is incompatible with `attachment`)",
      },
    },
  },
  responses: {
    201: { description: "Attachment", schema: api.Attachment },
    ...badRequest,
    ...forbidden,
    ...notFound,
    413: { description: "APIError", schema: api.APIError },
    ...validationError,
  },
  quota: { subject: "size:assets:attachments:releases", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, query, repo: access }) {
    const services = c.get("services");
    const settings = c.get("settings");
    if (!settings.attachment.enabled) throw new NotFoundError("Attachment is not enabled");
    const release = await services.releases.get(access, params.id);
    const upload = await readUpload(c, {
      field: "attachment",
      raw: true,
      maxBytes: services.attachments.maxBytes(),
      limitName: `[attachment] MAX_SIZE (${settings.attachment.maxSize} MiB)`,
    });
    const externalUrl = upload.fields.get("external_url") ?? "";
    const hasFile = upload.file !== undefined && (isMultipart(c) || upload.file.head.length > 0);
    if (hasFile && externalUrl)
      throw new BadRequestError("'attachment' and 'external_url' are mutually exclusive");
    if (upload.file && hasFile) {
      const name = query.name || upload.file.filename;
      if (!name) throw new BadRequestError("Missing 'name' parameter");
      checkFileType(upload.file, name, settings.attachment.releaseAllowedTypes, "bad_request");
      const row = await services.attachments.upload(
        access,
        { releaseId: release.id },
        { name, body: upload.file.body, signal: upload.signal },
      );
      return c.json(toApiAttachment(row, settings), 201);
    }
    if (externalUrl) {
      let name = query.name ?? "";
      if (!name) {
        try {
          const url = new URL(externalUrl);
          name = url.pathname.split("/").filter(Boolean).at(-1) ?? url.host;
        } catch {
          throw new BadRequestError(`invalid external URL: '${externalUrl.slice(0, 200)}'`);
        }
      }
      const row = await services.attachments.linkExternal(
        access,
        release.id,
        name || "external",
        externalUrl,
      );
      return c.json(toApiAttachment(row, settings), 201);
    }
    throw new BadRequestError("One of 'attachment' or 'external_url' is required");
  },
});

export const repoGetReleaseAttachment = route({
  method: "get",
  path: "/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}",
  operationId: "repoGetReleaseAttachment",
  tags: ["repository"],
  summary: "Get a release attachment",
  access: "public",
  repo: { read: "repo.releases" },
  scopes: ["repository"],
  params: assetParams,
  responses: { 200: { description: "Attachment", schema: api.Attachment }, ...notFound },
  async handler(c, { params, repo: access }) {
    const row = await assetOf(c, access, params.id, params.attachment_id);
    return c.json(toApiAttachment(row, c.get("settings")));
  },
});

export const repoEditReleaseAttachment = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}",
  operationId: "repoEditReleaseAttachment",
  tags: ["repository"],
  summary: "Edit a release attachment",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: assetParams,
  body: api.EditAttachmentOptions,
  bodyRequired: false,
  responses: {
    201: { description: "Attachment", schema: api.Attachment },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...quotaExceeded,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const row = await assetOf(c, access, params.id, params.attachment_id);
    if (body?.name) checkNewName(body.name, c.get("settings").attachment.releaseAllowedTypes);
    const updated = await c
      .get("services")
      .attachments.edit(row, { name: body?.name, downloadUrl: body?.browser_download_url });
    return c.json(toApiAttachment(updated, c.get("settings")), 201);
  },
});

export const repoDeleteReleaseAttachment = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}",
  operationId: "repoDeleteReleaseAttachment",
  tags: ["repository"],
  summary: "Delete a release attachment",
  access: "signed-in",
  repo: { write: ["repo.releases"] },
  scopes: ["repository"],
  params: assetParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    const row = await assetOf(c, access, params.id, params.attachment_id);
    await c.get("services").attachments.delete(row);
    return c.body(null, 204);
  },
});

export const releaseAttachmentRoutes = [
  repoListReleaseAttachments,
  repoCreateReleaseAttachment,
  repoGetReleaseAttachment,
  repoEditReleaseAttachment,
  repoDeleteReleaseAttachment,
];
