import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;

/** `userId` (a user or an organization) blocks `blockId` (Forgejo's forgejo_blocked_user). */
export interface BlockedUserTable {
  id: Generated<number>;
  userId: number;
  blockId: number;
  createdAt: CreatedAt;
}

/** An account's old lower-case name, which keeps leading to it (Forgejo's user_redirect). */
export interface UserRedirectTable {
  id: Generated<number>;
  lowerName: string;
  redirectUserId: number;
}

/** A repository's old lower-case name under an owner (Forgejo's repo_redirect). */
export interface RepoRedirectTable {
  id: Generated<number>;
  ownerId: number;
  lowerName: string;
  redirectRepoId: number;
}

/** A repository directory to move once the rename or transfer that needs it has committed. */
/** A deleted repository's directory, to remove once its deletion committed (migration 0031). */
export interface RepoDeletionTable {
  id: Generated<number>;
  owner: string;
  name: string;
  createdAt: CreatedAt;
}

export interface RepoMoveTable {
  id: Generated<number>;
  fromOwner: string;
  fromName: string;
  toOwner: string;
  toName: string;
  createdAt: CreatedAt;
}

/** The tables of blocks, redirects and pending directory moves (migration 0029). */
export interface PeopleTables {
  blockedUser: BlockedUserTable;
  userRedirect: UserRedirectTable;
  repoRedirect: RepoRedirectTable;
  repoMove: RepoMoveTable;
  repoDeletion: RepoDeletionTable;
}
