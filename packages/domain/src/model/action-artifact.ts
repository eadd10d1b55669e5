/**
 * An Actions artifact: the zip archive one workflow run of a repository uploaded under a name. It
 * counts against the repository's owner by its stored (compressed) size until `expiresAt`, when it
 * is gone for every reader.
 */
export interface ActionArtifact {
  readonly id: number;
  readonly repoId: number;
  /** The run, as the uploader numbered it within the repository (Kiln runs no workflows). */
  readonly runId: number;
  readonly name: string;
  /** The commit the run built, as the uploader gave it (empty when it gave none). */
  readonly headSha: string;
  /** Bytes stored: the zip as uploaded. */
  readonly size: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly expiresAt: Date;
}
