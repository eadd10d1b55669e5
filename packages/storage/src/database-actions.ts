import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

/** An Actions artifact: the zip one run of a repository uploaded under a name (migration 0014). */
export interface ActionArtifactTable {
  id: Generated<number>;
  repoId: number;
  /** The run, as the uploader numbered it within the repository. */
  runId: number;
  name: string;
  uploaderId: number | null;
  headSha: Generated<string>;
  /** The sha256 key of its bytes in the artifacts' blob store. */
  blobKey: string;
  /** Bytes stored (the compressed size): what the quota counts against the repository's owner. */
  size: number;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  /** When it stops counting and is gone for every reader; the expiry task then removes the row. */
  expiresAt: Date;
}

/** The Actions tables of the schema. */
export interface ActionTables {
  actionArtifact: ActionArtifactTable;
}
