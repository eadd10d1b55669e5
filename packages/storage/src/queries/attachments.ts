import type { Paged, PageRequest } from "@kiln/domain";
import type { Insertable } from "kysely";
import type { Db } from "../database.js";
import type { AttachmentRow, AttachmentTable } from "../database-attachments.js";
import { pageOf } from "./paging.js";
import type { UsageSource } from "./usage-source.js";

export type NewAttachment = Insertable<AttachmentTable>;

/** What an attachment is in (for its URLs): a release, an issue, or a comment of an issue. */
export interface AttachmentPlace {
  readonly repoId: number;
  readonly ownerName: string;
  readonly repoName: string;
  readonly releaseTag: string | null;
  readonly issueIndex: number | null;
  readonly issueIsPull: boolean | null;
}

export async function insertAttachment(db: Db, row: NewAttachment): Promise<AttachmentRow> {
  return db.insertInto("attachment").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findAttachment(db: Db, id: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom("attachment").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findAttachmentByUuid(db: Db, uuid: string): Promise<AttachmentRow | undefined> {
  return db.selectFrom("attachment").selectAll().where("uuid", "=", uuid).executeTakeFirst();
}

/** The attachments of these releases, oldest first. */
export async function attachmentsOfReleases(db: Db, releaseIds: readonly number[]): Promise<AttachmentRow[]> {
  if (releaseIds.length === 0) return [];
  return db.selectFrom("attachment").selectAll().where("releaseId", "in", releaseIds).orderBy("id").execute();
}

/** An issue's own attachments (not its comments'), oldest first; at most `limit`. */
export async function attachmentsOfIssue(db: Db, issueId: number, limit: number): Promise<AttachmentRow[]> {
  return db
    .selectFrom("attachment")
    .selectAll()
    .where("issueId", "=", issueId)
    .where("commentId", "is", null)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** The own attachments (not their comments') of these issues, oldest first. */
export async function attachmentsOfIssues(db: Db, issueIds: readonly number[]): Promise<AttachmentRow[]> {
  if (issueIds.length === 0) return [];
  return db
    .selectFrom("attachment")
    .selectAll()
    .where("issueId", "in", issueIds)
    .where("commentId", "is", null)
    .orderBy("id")
    .execute();
}

/** The attachments of these comments, oldest first. */
export async function attachmentsOfComments(db: Db, commentIds: readonly number[]): Promise<AttachmentRow[]> {
  if (commentIds.length === 0) return [];
  return db.selectFrom("attachment").selectAll().where("commentId", "in", commentIds).orderBy("id").execute();
}

/** Renames an attachment and, for an external one, changes its address. */
export async function updateAttachment(
  db: Db,
  id: number,
  changes: { name?: string; externalUrl?: string },
): Promise<AttachmentRow | undefined> {
  if (Object.keys(changes).length === 0) return findAttachment(db, id);
  return db.updateTable("attachment").set(changes).where("id", "=", id).returningAll().executeTakeFirst();
}

/** Counts a download (Forgejo's IncreaseDownloadCount). */
export async function countDownload(db: Db, id: number): Promise<void> {
  await db
    .updateTable("attachment")
    .set((eb) => ({ downloadCount: eb("downloadCount", "+", 1) }))
    .where("id", "=", id)
    .execute();
}

/**
 * Deletes attachments (by id, or every one of a release, an issue or a comment) and returns what
 * they were, so the caller can release their usage in the same transaction.
 */
export async function deleteAttachments(
  db: Db,
  which: { ids: readonly number[] } | { releaseId: number } | { issueId: number } | { commentId: number },
): Promise<Pick<AttachmentRow, "id" | "size" | "releaseId" | "repoId">[]> {
  let query = db.deleteFrom("attachment");
  if ("ids" in which) {
    if (which.ids.length === 0) return [];
    query = query.where("id", "in", which.ids);
  } else if ("releaseId" in which) query = query.where("releaseId", "=", which.releaseId);
  else if ("issueId" in which) query = query.where("issueId", "=", which.issueId);
  else query = query.where("commentId", "=", which.commentId);
  return query.returning(["id", "size", "releaseId", "repoId"]).execute();
}

/** The bytes a repository's attachments hold, issue and release apart. */
export async function sumOfRepository(
  db: Db,
  repoId: number,
): Promise<{ issueAttachments: number; releaseAttachments: number }> {
  const row = await db
    .selectFrom("attachment")
    .where("repoId", "=", repoId)
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>("size").filterWhere("releaseId", "is", null), eb.lit(0)).as("issues"),
      eb.fn
        .coalesce(eb.fn.sum<number>("size").filterWhere("releaseId", "is not", null), eb.lit(0))
        .as("releases"),
    ])
    .executeTakeFirstOrThrow();
  return { issueAttachments: Number(row.issues), releaseAttachments: Number(row.releases) };
}

/** Which of these blob keys some attachment stores its bytes under. */
export async function referencedBlobs(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom("attachment")
    .select("blobKey")
    .distinct()
    .where("blobKey", "in", keys)
    .execute();
  return new Set(rows.map((r) => r.blobKey as string));
}

/** Issue and release attachments summed per repository owner (the ledger's recount). */
export const attachmentUsage: UsageSource = async (db, ownerIds) => {
  const rows = await db
    .selectFrom("attachment")
    .innerJoin("repository", "repository.id", "attachment.repoId")
    .where("repository.ownerId", "in", ownerIds)
    .groupBy("repository.ownerId")
    .select((eb) => [
      "repository.ownerId as ownerId",
      eb.fn
        .coalesce(
          eb.fn.sum<number>("attachment.size").filterWhere("attachment.releaseId", "is", null),
          eb.lit(0),
        )
        .as("issues"),
      eb.fn
        .coalesce(
          eb.fn.sum<number>("attachment.size").filterWhere("attachment.releaseId", "is not", null),
          eb.lit(0),
        )
        .as("releases"),
    ])
    .execute();
  return new Map(
    rows.map((r) => [
      r.ownerId,
      { issueAttachments: Number(r.issues), releaseAttachments: Number(r.releases) },
    ]),
  );
};

/**
 * The attachments counting against an owner (of its repositories), largest first, with what
 * each is in: `/user/quota/attachments`; with `publicOnly`, only those of public repositories of
 * a public owner.
 */
export async function usedByOwner(
  db: Db,
  ownerId: number,
  page: PageRequest,
  publicOnly = false,
): Promise<Paged<AttachmentRow & AttachmentPlace>> {
  let base = db
    .selectFrom("attachment")
    .innerJoin("repository", "repository.id", "attachment.repoId")
    .where("repository.ownerId", "=", ownerId);
  // A public-only token sees public repositories of public owners only.
  if (publicOnly)
    base = base
      .where("repository.isPrivate", "=", false)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("users")
            .select("users.id")
            .whereRef("users.id", "=", "repository.ownerId")
            .where("users.visibility", "=", "public"),
        ),
      );
  return pageOf(
    base,
    (q) =>
      q
        .leftJoin("release", "release.id", "attachment.releaseId")
        .leftJoin("issue", "issue.id", "attachment.issueId")
        .selectAll("attachment")
        .select([
          "repository.ownerName as ownerName",
          "repository.name as repoName",
          "release.tagName as releaseTag",
          "issue.index as issueIndex",
          "issue.isPull as issueIsPull",
        ])
        .orderBy("attachment.size", "desc")
        .orderBy("attachment.id", "desc"),
    page,
  );
}
