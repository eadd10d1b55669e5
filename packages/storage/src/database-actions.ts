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

/** A secret or a variable of an owner or a repository (exactly one of the two; migration 0027). */
export interface ActionSettingTable {
  id: Generated<number>;
  ownerId: number | null;
  repoId: number | null;
  /** Upper-cased, as Forgejo stores it. */
  name: string;
  /** Secrets: sealed with SECRET_KEY; variables: the value. */
  data: string;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A runner registration token of one scope (`global`, `owner:<id>`, `repo:<id>`). */
export interface ActionRunnerTokenTable {
  id: Generated<number>;
  scopeKey: string;
  ownerId: number | null;
  repoId: number | null;
  /** Sealed with SECRET_KEY. */
  token: string;
  tokenHash: string;
  createdAt: CreatedAt;
}

/** A workflow run of a repository (Forgejo's ActionRun). */
export interface ActionRunTable {
  id: Generated<number>;
  repoId: number;
  ownerId: number;
  index: number;
  title: Generated<string>;
  workflowId: string;
  triggerUserId: number | null;
  ref: string;
  commitSha: string;
  event: string;
  status: string;
  inputs: Generated<string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  startedAt: Date | null;
  stoppedAt: Date | null;
}

/** A job of a run (Forgejo's ActionRunJob); `needs` and `runs_on` are JSON arrays. */
export interface ActionRunJobTable {
  id: Generated<number>;
  runId: number;
  repoId: number;
  ownerId: number;
  name: string;
  needs: Generated<string>;
  runsOn: Generated<string>;
  taskId: Generated<number>;
  status: string;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** An attempt of a job on a runner (Forgejo's ActionTask). */
export interface ActionTaskTable {
  id: Generated<number>;
  jobId: number;
  repoId: number;
  ownerId: number;
  status: string;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
  startedAt: Date | null;
  stoppedAt: Date | null;
}

/** The Actions tables of the schema. */
export interface ActionTables {
  actionArtifact: ActionArtifactTable;
  actionSecret: ActionSettingTable;
  actionVariable: ActionSettingTable;
  actionRunnerToken: ActionRunnerTokenTable;
  actionRun: ActionRunTable;
  actionRunJob: ActionRunJobTable;
  actionTask: ActionTaskTable;
}
