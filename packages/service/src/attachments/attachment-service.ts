import { randomUUID } from "node:crypto";
import { type BlobStore, BlobTooLargeError, type ByteRange, FsBlobStore, withStoredBlob } from "@kiln/blobs";
import {
  BadRequestError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PayloadTooLargeError,
  type QuotaUsedAttachment,
} from "@kiln/domain";
import { type AttachmentRow, attachments, releases, repositories } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import { type Actor, readingAs } from "../access/actor.js";
import { writesUnit } from "../access/repo-rules.js";
import type { ServiceContext } from "../context.js";
import type { BlobKind } from "../cron/blob-sweep.js";
import { QuotaLedger } from "../quota/ledger.js";
import { checkName, checkUrl } from "./attachment-checks.js";
import { type AttachmentDownload, readableBy, serveAttachment } from "./attachment-download.js";

export { MAX_ATTACHMENT_NAME } from "./attachment-checks.js";
export type { AttachmentDownload } from "./attachment-download.js";

import { removeAttachments } from "./remove-attachments.js";

export { removeAttachments };

/** What an attachment is attached to. A comment's attachment names its issue too. */
export type AttachmentTarget =
  | { readonly releaseId: number }
  | { readonly issueId: number; readonly commentId?: number | undefined };

/** An uploaded file on its way into the store. */
export interface FileUpload {
  readonly name: string;
  readonly body: AsyncIterable<Uint8Array>;
  /** Aborts the upload when the client goes away. */
  readonly signal?: AbortSignal;
}

const ledger = new QuotaLedger();

/**
 * Attachments of releases, issues and comments (Forgejo's services/attachment and
 * models/repo/attachment): bytes streamed into a content-addressed blob store (`[attachment]
 * PATH`), a row per attachment, and the bytes stored counted against the repository's owner in
 * the quota ledger in the transaction that inserts or deletes the row. Access is decided by the
 * routes (and, for downloads, by the access module here); the checks of who may change an
 * issue's or a comment's attachments are the callers'.
 */
export class AttachmentService {
  readonly store: BlobStore;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
    store?: BlobStore,
  ) {
    this.store = store ?? new FsBlobStore(ctx.settings.attachment.path);
  }

  /** The attachments' blob kind, for the sweep and `kiln doctor`. */
  blobKind(): BlobKind {
    return {
      name: "attachments",
      store: this.store,
      referenced: (keys) => attachments.referencedBlobs(this.ctx.db, keys),
    };
  }

  /** `[attachment] MAX_SIZE` in bytes. */
  maxBytes(): number {
    return this.ctx.settings.attachment.maxSize * 1024 * 1024;
  }

  /**
   * Stores an uploaded file as an attachment of `target` in the caller's repository, counting
   * its size against the repository's owner. The bytes are stored first (an interrupted or
   * oversized upload keeps nothing); then, in one transaction with the repository locked, the
   * target is checked to still be there, the row inserted and the usage recorded.
   */
  async upload(access: RepoAccess, target: AttachmentTarget, file: FileUpload): Promise<AttachmentRow> {
    const name = checkName(file.name);
    const maxBytes = this.maxBytes();
    const options = {
      maxBytes,
      referenced: (keys: readonly string[]) => attachments.referencedBlobs(this.ctx.db, keys),
      ...(file.signal ? { signal: file.signal } : {}),
    };
    try {
      // A refusal after the bytes arrived (the target gone meanwhile) removes them again.
      return await withStoredBlob(this.store, file.body, options, (blob) =>
        this.record(access, target, { name, blobKey: blob.key, size: blob.size, externalUrl: null }),
      );
    } catch (error) {
      if (error instanceof BlobTooLargeError)
        throw new PayloadTooLargeError(
          `the file is larger than [attachment] MAX_SIZE: at most ${maxBytes} bytes may be uploaded`,
        );
      throw error;
    }
  }

  /** Links a release to a file elsewhere (Forgejo's external attachments): no bytes, no usage. */
  async linkExternal(
    access: RepoAccess,
    releaseId: number,
    name: string,
    url: string,
  ): Promise<AttachmentRow> {
    return this.record(
      access,
      { releaseId },
      { name: checkName(name), blobKey: null, size: 0, externalUrl: checkUrl(url) },
    );
  }

  private async record(
    access: RepoAccess,
    target: AttachmentTarget,
    fields: { name: string; blobKey: string | null; size: number; externalUrl: string | null },
  ): Promise<AttachmentRow> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const repo = await repositories.lockRepository(trx, access.repo.id);
      if (!repo) throw new NotFoundError();
      if ("releaseId" in target) {
        if (!(await releases.findRelease(trx, repo.id, target.releaseId))) throw new NotFoundError();
      } else {
        const issue = await trx
          .selectFrom("issue")
          .select("id")
          .where("id", "=", target.issueId)
          .where("repoId", "=", repo.id)
          .executeTakeFirst();
        if (!issue) throw new NotFoundError();
        if (target.commentId !== undefined) {
          const comment = await trx
            .selectFrom("comment")
            .select("id")
            .where("id", "=", target.commentId)
            .where("issueId", "=", target.issueId)
            .executeTakeFirst();
          if (!comment) throw new NotFoundError();
        }
      }
      const row = await attachments.insertAttachment(trx, {
        uuid: randomUUID(),
        repoId: repo.id,
        releaseId: "releaseId" in target ? target.releaseId : null,
        issueId: "issueId" in target ? target.issueId : null,
        commentId: "issueId" in target ? (target.commentId ?? null) : null,
        uploaderId: access.viewer?.id ?? null,
        name: fields.name,
        size: fields.size,
        blobKey: fields.blobKey,
        externalUrl: fields.externalUrl,
      });
      if (fields.size > 0)
        await ledger.record(
          trx,
          repo.ownerId,
          "releaseId" in target ? { releaseAttachments: fields.size } : { issueAttachments: fields.size },
        );
      return row;
    });
  }

  /** One attachment by id, if it is of this repository. */
  async find(repoId: number, id: number): Promise<AttachmentRow | undefined> {
    const row = await attachments.findAttachment(this.ctx.db, id);
    return row && row.repoId === repoId ? row : undefined;
  }

  /** Renames an attachment, and moves an external one (`downloadUrl`: 400 for a stored one). */
  async edit(row: AttachmentRow, input: { name?: string | undefined; downloadUrl?: string | undefined }) {
    const changes: { name?: string; externalUrl?: string } = {};
    if (input.name) changes.name = checkName(input.name);
    if (input.downloadUrl) {
      if (row.externalUrl === null) throw new BadRequestError("existing attachment is not external");
      changes.externalUrl = checkUrl(input.downloadUrl);
    }
    const updated = await attachments.updateAttachment(this.ctx.db, row.id, changes);
    if (!updated) throw new NotFoundError();
    return updated;
  }

  /** Deletes one attachment and its usage. */
  async delete(row: AttachmentRow): Promise<void> {
    await this.ctx.db.transaction().execute((trx) => removeAttachments(trx, row.repoId, { ids: [row.id] }));
  }

  /** An issue's own attachments (at most 1,000), oldest first. */
  ofIssue(issueId: number): Promise<AttachmentRow[]> {
    return attachments.attachmentsOfIssue(this.ctx.db, issueId, 1000);
  }

  /** The own attachments of some issues (for their `assets`), oldest first, in one query. */
  ofIssues(issueIds: readonly number[]): Promise<AttachmentRow[]> {
    return attachments.attachmentsOfIssues(this.ctx.db, issueIds);
  }

  /** The attachments of some comments, oldest first, in one query. */
  ofComments(commentIds: readonly number[]): Promise<AttachmentRow[]> {
    return attachments.attachmentsOfComments(this.ctx.db, commentIds);
  }

  /** The attachments of some releases, oldest first, in one query. */
  ofReleases(releaseIds: readonly number[]): Promise<AttachmentRow[]> {
    return attachments.attachmentsOfReleases(this.ctx.db, releaseIds);
  }

  /**
   * `/attachments/{uuid}` as Forgejo's ServeAttachment: 404 unless the caller may read what the
   * attachment is in (the releases, or the issues or pull requests, of its repository; a draft
   * release only for its writers), with a token's scope for that kind (see {@link readingAs});
   * an external one is a redirect; a stored one is counted as
   * downloaded and streamed, whole or the requested range.
   */
  async download(
    actor: Actor,
    uuid: string,
    range?: (size: number) => ByteRange | undefined,
  ): Promise<AttachmentDownload> {
    const row = /^[0-9a-f-]{36}$/i.test(uuid)
      ? await attachments.findAttachmentByUuid(this.ctx.db, uuid)
      : undefined;
    if (!row) throw new NotFoundError("attachment does not exist");
    // A token reads a release's asset with the repository scope, an issue's or a comment's
    // attachment with the issue scope, as the API's routes for each ask.
    const reader = readingAs(actor, row.releaseId !== null ? "repository" : "issue");
    const repo = await this.access.repoById(reader, row.repoId, "read");
    if (!(await readableBy(this.ctx.db, repo, row))) throw new NotFoundError("attachment does not exist");
    return serveAttachment(this.ctx, this.store, row, range);
  }

  /**
   * `/{owner}/{repo}/releases/download/{tag}/{name}` as Forgejo's RedirectDownload: the asset
   * `name` of the release tagged `tag` (`latest`, when no release has that tag, is the latest
   * release), served as {@link download} serves it. The caller resolved `access` through the
   * access module with the releases unit readable; a draft is found only by its writers.
   */
  async downloadFromRelease(
    access: RepoAccess,
    tag: string,
    name: string,
    range?: (size: number) => ByteRange | undefined,
  ): Promise<AttachmentDownload> {
    const seesDrafts = writesUnit(access, "repo.releases");
    let release = await releases.findReleaseByTag(this.ctx.db, access.repo.id, tag);
    if (release?.isDraft && !seesDrafts) release = undefined;
    if (!release && tag === "latest") release = await releases.latestRelease(this.ctx.db, access.repo.id);
    if (!release) throw new NotFoundError("release does not exist");
    const rows = await attachments.attachmentsOfReleases(this.ctx.db, [release.id]);
    const row = rows.find((a) => a.name === name);
    if (!row) throw new NotFoundError("attachment does not exist");
    return serveAttachment(this.ctx, this.store, row, range);
  }

  /** The attachments counting against an owner, largest first (`/user/quota/attachments`). */
  async usedBy(ownerId: number, page: PageRequest, publicOnly = false): Promise<Paged<QuotaUsedAttachment>> {
    const list = await attachments.usedByOwner(this.ctx.db, ownerId, page, publicOnly);
    return {
      total: list.total,
      items: list.items.map((a) => {
        const repo = `${a.ownerName}/${a.repoName}`;
        let apiPath: string;
        let htmlPath: string;
        if (a.releaseId !== null) {
          apiPath = `/repos/${repo}/releases/${a.releaseId}`;
          htmlPath = `${repo}/releases/tag/${encodeSegments(a.releaseTag ?? "")}`;
        } else if (a.commentId !== null) {
          apiPath = `/repos/${repo}/issues/comments/${a.commentId}`;
          htmlPath = `${repo}/${a.issueIsPull ? "pulls" : "issues"}/${a.issueIndex}#issuecomment-${a.commentId}`;
        } else {
          apiPath = `/repos/${repo}/issues/${a.issueIndex}`;
          htmlPath = `${repo}/${a.issueIsPull ? "pulls" : "issues"}/${a.issueIndex}`;
        }
        return {
          name: a.name,
          size: a.size,
          apiPath: `${apiPath}/assets/${a.id}`,
          containedIn: { apiPath, htmlPath },
        };
      }),
    };
  }
}

function encodeSegments(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
