/** A release of a repository: a tag with a title, notes and assets. */
export interface Release {
  readonly id: number;
  readonly repoId: number;
  /** Null once the publisher's account is deleted (shown as the Ghost user). */
  readonly publisherId: number | null;
  readonly tagName: string;
  readonly lowerTagName: string;
  readonly target: string;
  readonly title: string;
  readonly note: string;
  readonly sha1: string;
  readonly isDraft: boolean;
  readonly isPrerelease: boolean;
  readonly hideArchiveLinks: boolean;
  readonly createdAt: Date;
}

/** An uploaded file of a release, an issue or a comment, or a link to one elsewhere. */
export interface Attachment {
  readonly id: number;
  readonly uuid: string;
  readonly repoId: number;
  readonly issueId: number | null;
  readonly commentId: number | null;
  readonly releaseId: number | null;
  readonly uploaderId: number | null;
  readonly name: string;
  /** Bytes stored (0 for an external link). */
  readonly size: number;
  /** The blob store key (sha256) of the bytes; null for an external link. */
  readonly blobKey: string | null;
  readonly externalUrl: string | null;
  readonly downloadCount: number;
  readonly createdAt: Date;
}
