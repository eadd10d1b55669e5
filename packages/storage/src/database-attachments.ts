import type { Attachment, Release } from "@kiln/domain";
import type { ColumnType, Generated, Selectable } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;

/** A release of a repository: a tag with a title, notes and assets (migration 0012). */
export interface ReleaseTable {
  id: Generated<number>;
  repoId: number;
  /** Null once the publisher's account is deleted (shown as the Ghost user). */
  publisherId: number | null;
  tagName: string;
  lowerTagName: string;
  target: Generated<string>;
  title: Generated<string>;
  note: Generated<string>;
  sha1: Generated<string>;
  isDraft: Generated<boolean>;
  isPrerelease: Generated<boolean>;
  hideArchiveLinks: Generated<boolean>;
  createdAt: ColumnType<Date, Date | undefined, Date>;
}

/** An uploaded file of a release, an issue or a comment, or a link to one elsewhere. */
export interface AttachmentTable {
  id: Generated<number>;
  uuid: string;
  repoId: number;
  issueId: number | null;
  commentId: number | null;
  releaseId: number | null;
  uploaderId: number | null;
  name: string;
  /** Bytes stored (0 for an external link). */
  size: Generated<number>;
  /** The blob store key (sha256) of the bytes; null for an external link. */
  blobKey: string | null;
  externalUrl: string | null;
  downloadCount: Generated<number>;
  createdAt: CreatedAt;
}

/** An entry of an activity feed (Forgejo's Action): `userId` is whose feed shows it. */
export interface ActionTable {
  id: Generated<number>;
  userId: number;
  opType: number;
  actUserId: number | null;
  repoId: number | null;
  commentId: number | null;
  isDeleted: Generated<boolean>;
  refName: Generated<string>;
  isPrivate: Generated<boolean>;
  content: Generated<string>;
  createdAt: CreatedAt;
}

export interface AttachmentTables {
  release: ReleaseTable;
  attachment: AttachmentTable;
  action: ActionTable;
}

/** A release as read; the domain's {@link Release}, which the selection must satisfy. */
export type ReleaseRow = Release;
/** An attachment as read; the domain's {@link Attachment}. */
export type AttachmentRow = Attachment;
export type ActionRow = Selectable<ActionTable>;
