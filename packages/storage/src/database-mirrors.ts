import type { PushMirror } from "@kiln/domain";
import type { ColumnType, Generated, Selectable } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;

/** The pull side of a mirror repository (migration 0021). */
export interface MirrorTable {
  repoId: number;
  /** Where it is fetched from, without credentials. */
  remoteAddress: string;
  /** `{username, password}` JSON sealed with the instance's secret key (empty: none). */
  credentials: Generated<string>;
  /** Milliseconds between periodic syncs; 0: none. */
  intervalMs: number;
  enablePrune: Generated<boolean>;
  /** The last sync (Forgejo's `mirror_updated`). */
  updatedAt: ColumnType<Date, Date | undefined, Date>;
  /** When the next periodic sync is due; null when the interval is 0. */
  nextUpdateAt: Date | null;
  lastError: Generated<string>;
  createdAt: CreatedAt;
}

/** A remote a repository is pushed to (migration 0021). */
export interface PushMirrorTable {
  id: Generated<number>;
  repoId: number;
  remoteName: string;
  remoteAddress: string;
  credentials: Generated<string>;
  intervalMs: number;
  syncOnCommit: Generated<boolean>;
  lastUpdateAt: Date | null;
  lastError: Generated<string>;
  createdAt: CreatedAt;
}

/** The mirror tables, merged into `Database`. */
export interface MirrorTables {
  mirror: MirrorTable;
  pushMirror: PushMirrorTable;
}

export type MirrorRow = Selectable<MirrorTable>;
/** A push mirror as read; the domain's {@link PushMirror}. */
export type PushMirrorRow = PushMirror;
