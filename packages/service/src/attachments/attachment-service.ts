import { randomUUID } from "node:crypto";
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  FsBlobStore,
  withStoredBlob,
} from "@kiln/blobs";
import {
  BadRequestError,
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PayloadTooLargeError,
  type QuotaUsedAttachment,
} from "@kiln/domain";
import { type AttachmentRow, attachments, type Db, releases, repositories } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import type { Actor } from "../access/actor.js";
import { canRead, canWrite } from "../access/repo-permission.js";
import type { ServiceContext } from "../context.js";
import type { BlobKind } from "../cron/blob-sweep.js";
import { QuotaLedger } from "../quota/ledger.js";

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

/** What a download of `/attachments/{uuid}` gets: the bytes, or where they are. */
export type AttachmentDownload =
  | { readonly kind: "external"; readonly url: string }
  | {
      readonly kind: "blob";
      readonly attachment: AttachmentRow;
      readonly size: number;
      readonly range?: ByteRange;
      readonly stream: ReadableStream<Uint8Array>;
    };

/** The longest attachment name Kiln keeps (Forgejo's column is a VARCHAR(255)). */
export const MAX_ATTACHMENT_NAME = 255;

const ledger = new QuotaLedger();

/**
 * Removes attachments with their usage, in the caller's transaction: every one of a release, an
 * issue (its comments' too) or a comment, or the given ids, all of repository `repoId`. It locks
 * the repository row first, as uploads do, so a deletion and an upload of the same repository
 * are counted one after the other; call it before deleting the rows they hang on. Their bytes
 * stay in the store until the sweep finds them unreferenced (the same bytes may be stored once
 * for several attachments).
 */
export async function removeAttachments(
  db: Db,
  repoId: number,
  which: { ids: readonly number[] } | { releaseId: number } | { issueId: number } | { commentId: number },
): Promise<number> {
  const repo = await repositories.lockRepository(db, repoId);
  const gone = await attachments.deleteAttachments(db, which);
  if (!repo || gone.length === 0) return gone.length;
  let issueBytes = 0;
  let releaseBytes = 0;
  for (const row of gone) {
    if (row.releaseId === null) issueBytes += row.size;
    else releaseBytes += row.size;
  }
  await ledger.record(db, repo.ownerId, { issueAttachments: -issueBytes, releaseAttachments: -releaseBytes });
  return gone.length;
}

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
  async upload(ctx: RepoAccess, target: AttachmentTarget, file: FileUpload): Promise<AttachmentRow> {
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
        this.record(ctx, target, { name, blobKey: blob.key, size: blob.size, externalUrl: null }),
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
  async linkExternal(ctx: RepoAccess, releaseId: number, name: string, url: string): Promise<AttachmentRow> {
    return this.record(
      ctx,
      { releaseId },
      { name: checkName(name), blobKey: null, size: 0, externalUrl: checkUrl(url) },
    );
  }

  private async record(
    ctx: RepoAccess,
    target: AttachmentTarget,
    fields: { name: string; blobKey: string | null; size: number; externalUrl: string | null },
  ): Promise<AttachmentRow> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const repo = await repositories.lockRepository(trx, ctx.repo.id);
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
        uploaderId: ctx.viewer?.id ?? null,
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
   * release only for its writers); an external one is a redirect; a stored one is counted as
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
    const repo = await this.access.repoById(actor, row.repoId, "read");
    if (!(await this.readable(repo, row))) throw new NotFoundError("attachment does not exist");
    if (row.externalUrl !== null) return { kind: "external", url: row.externalUrl };
    const size = row.size;
    const wanted = range?.(size);
    let stream: ReadableStream<Uint8Array>;
    try {
      stream = await this.store.open(row.blobKey as string, wanted);
    } catch (error) {
      if (error instanceof BlobNotFoundError) {
        this.ctx.logger.error(
          { attachment: row.uuid, key: row.blobKey },
          "an attachment's stored file is missing",
        );
        throw new NotFoundError("attachment does not exist");
      }
      throw error;
    }
    await attachments.countDownload(this.ctx.db, row.id);
    return { kind: "blob", attachment: row, size, ...(wanted ? { range: wanted } : {}), stream };
  }

  private async readable(repo: RepoAccess, row: AttachmentRow): Promise<boolean> {
    const admin = repo.viewer?.isAdmin === true;
    if (row.releaseId !== null) {
      if (!canRead(repo.permission, "repo.releases") && !admin) return false;
      const release = await releases.findRelease(this.ctx.db, row.repoId, row.releaseId);
      return !!release && (!release.isDraft || canWrite(repo.permission, "repo.releases") || admin);
    }
    const issue = await this.ctx.db
      .selectFrom("issue")
      .select("isPull")
      .where("id", "=", row.issueId as number)
      .executeTakeFirst();
    if (!issue) return false;
    return canRead(repo.permission, issue.isPull ? "repo.pulls" : "repo.issues") || admin;
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

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new BadRequestError("Missing 'name' parameter");
  if ([...trimmed].length > MAX_ATTACHMENT_NAME)
    throw new InvalidArgumentError(`the attachment name is longer than ${MAX_ATTACHMENT_NAME} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw new InvalidArgumentError("the attachment name holds control characters");
  return trimmed;
}

/** Forgejo's IsValidReleaseAssetURL: an absolute http(s) URL. */
function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError(`invalid external URL: '${url.slice(0, 200)}'`);
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || url.length > 2048)
    throw new BadRequestError(`invalid external URL: '${url.slice(0, 200)}'`);
  return parsed.toString();
}
