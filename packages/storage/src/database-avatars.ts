import type { ColumnType, Selectable } from "kysely";

/** An uploaded avatar of one user, organization or repository (migration 0020). */
export interface AvatarTable {
  /** What it is served under: `/avatars/<hash>` (accounts) or `/repo-avatars/<hash>`. */
  hash: string;
  userId: number | null;
  repoId: number | null;
  /** The content-addressed key of its bytes in the avatars' blob store. */
  blobKey: string;
  /** Detected from the bytes at upload: image/png, image/jpeg, image/gif or image/webp. */
  contentType: string;
  size: number;
  createdAt: ColumnType<Date, Date | undefined, never>;
}

export interface AvatarTables {
  avatar: AvatarTable;
}

export type AvatarRow = Selectable<AvatarTable>;
