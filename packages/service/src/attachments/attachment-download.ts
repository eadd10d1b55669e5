import { BlobNotFoundError, type BlobStore, type ByteRange } from "@kiln/blobs";
import { NotFoundError } from "@kiln/domain";
import { type AttachmentRow, attachments, type Db, releases } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { readsUnit, writesUnit } from "../access/repo-rules.js";
import type { ServiceContext } from "../context.js";

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

/** An attachment's redirect or its stored bytes (whole or `range`), counted as downloaded. */
export async function serveAttachment(
  ctx: ServiceContext,
  store: BlobStore,
  row: AttachmentRow,
  range?: (size: number) => ByteRange | undefined,
): Promise<AttachmentDownload> {
  if (row.externalUrl !== null) return { kind: "external", url: row.externalUrl };
  const size = row.size;
  const wanted = range?.(size);
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await store.open(row.blobKey as string, wanted);
  } catch (error) {
    if (error instanceof BlobNotFoundError) {
      ctx.logger.error({ attachment: row.uuid, key: row.blobKey }, "an attachment's stored file is missing");
      throw new NotFoundError("attachment does not exist");
    }
    throw error;
  }
  await attachments.countDownload(ctx.db, row.id);
  return { kind: "blob", attachment: row, size, ...(wanted ? { range: wanted } : {}), stream };
}

/** Whether `repo`'s caller may read what `row` is attached to (a draft release: only its writers). */
export async function readableBy(db: Db, repo: RepoAccess, row: AttachmentRow): Promise<boolean> {
  if (row.releaseId !== null) {
    if (!readsUnit(repo, "repo.releases")) return false;
    const release = await releases.findRelease(db, row.repoId, row.releaseId);
    return !!release && (!release.isDraft || writesUnit(repo, "repo.releases"));
  }
  const issue = await db
    .selectFrom("issue")
    .select("isPull")
    .where("id", "=", row.issueId as number)
    .executeTakeFirst();
  if (!issue) return false;
  return readsUnit(repo, issue.isPull ? "repo.pulls" : "repo.issues");
}
