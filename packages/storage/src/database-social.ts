import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

/** Forgejo's watch modes: 1 normal, 2 don't watch, 3 auto (migration 0015). */
export const WatchMode = { normal: 1, dont: 2, auto: 3 } as const;
export type WatchMode = (typeof WatchMode)[keyof typeof WatchMode];

/** A user's choice to watch (or not) a repository; modes 1 and 3 count as watching. */
export interface WatchTable {
  id: Generated<number>;
  userId: number;
  repoId: number;
  mode: WatchMode;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A user's star on a repository. */
export interface StarTable {
  id: Generated<number>;
  userId: number;
  repoId: number;
  createdAt: CreatedAt;
}

/** `userId` follows `followId`. */
export interface FollowTable {
  id: Generated<number>;
  userId: number;
  followId: number;
  createdAt: CreatedAt;
}

/** The social tables of the schema (migration 0015). */
export interface SocialTables {
  watch: WatchTable;
  star: StarTable;
  follow: FollowTable;
}
